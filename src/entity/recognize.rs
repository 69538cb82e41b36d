//! Recognize: builds a book's entity catalog from the lexicon, named rules and
//! corpus-level statistics, in one pass over the book plus a decision step.
//!
//! 1. **Candidates.** Every Han run of the book is scanned once. Strings are
//!    proposed by anchors: a surname (single or compound) followed by a one-
//!    or two-character given name; a place suffix (州, 关, 山 …) or an army
//!    suffix (军, 兵, 骑兵 …) preceded by a stem; a speech or action cue
//!    (道, 率兵 …) preceded by a string, or a movement cue (前往, 攻 …)
//!    followed by one; the lexicon's places, factions and aliases.
//! 2. **Statistics.** A second scan counts every occurrence of every
//!    candidate (also those next to no cue) and records its contexts: cues
//!    on either side, whether it sits at a run edge (punctuation), whether its
//!    boundary cuts a common word of jieba's dictionary, and its neighbouring
//!    characters (boundary entropy). Context features belong to a boundary,
//!    so each is computed once per position. Cohesion is the smallest
//!    pointwise mutual information over the candidate's split points. In a
//!    book over 200 000 Han characters a string proposed only once is not
//!    counted.
//!
//!    Both scans run over slices of the book in parallel (candidates merged
//!    in book order, counts added up, neighbour pairs sorted before their
//!    floating-point sums), so the catalog is the same at any thread count.
//!    Strings are looked up by their characters packed into an integer
//!    (`corpus::Key`), behind a bit table of candidate first-character pairs.
//! 3. **Decision.** Each candidate gets a score per type from its evidence;
//!    the best type above its threshold wins (order below). Nested
//!    candidates are resolved by counts (耶律挞 lives only inside 耶律挞烈,
//!    so it goes; 德州 only inside 安德州; 距离锦州 is 锦州 plus context),
//!    names straddling a stronger one go (住山 in 守住山海关), coordination
//!    types the partner of a known name (润州或者迁州), armies are judged
//!    once places are known and merged by stem, factions come from army
//!    stems and polity contexts, aliases from `dict/aliases.tsv` (a line
//!    applies only to a book that names its canonical entity), the user's
//!    file (always applies) and courtesy-name statements.
//!
//! A name said once needs a strong cue (马扩也领着, 刘延庆兵马); a weak
//! cue (王叶入宋) is not enough. jieba's dictionary serves only as a
//! vocabulary of common words: its tags are not trusted as proof of a name.
//!
//! # Evidence codes
//!
//! The main ones; README.md ("Evidence codes") lists every code, with those
//! of the passes after the model (`unit`, `slang`, `sect`, `head`, `addr`,
//! `nick`, `foreign`, `dotted` …).
//!
//! | code    | meaning                                                                   |
//! |---------|---------------------------------------------------------------------------|
//! | `lex`   | listed in our lexicon (`dict/places.txt`, `dict/factions.txt`), or an army whose stem is |
//! | `sur`   | begins with a surname from `dict/surnames.txt` (single or compound)      |
//! | `say`   | followed by a speech cue (X道, X笑道, X曰, X问道 …)                        |
//! | `act`   | followed by an action cue (X率兵, X领着, X兵马 …), perhaps after an adverb |
//! | `cmd`   | preceded by a command or object cue (令X, 遣X, 擒住X …)                   |
//! | `ttl`   | next to a title (X将军, 都统X), a reign name + 帝 (天祚帝), or an adept's sobriquet + religious title (青霞真人) |
//! | `mov`   | preceded by a movement cue (到/往/至/入/攻/守/屯/前往 X)                  |
//! | `loc`   | followed by a location cue (X城下, X一带, X之战, X关隘)                   |
//! | `sfx`   | ends with a place suffix (`dict/place_suffixes.txt`), or an army whose stem does |
//! | `within` | a settlement written right after a city place (常州府武进县柯溪村)   |
//! | `army`  | army rule: faction, place, direction or X家 stem + army suffix            |
//! | `stat`  | corpus statistics: repeated, varied neighbours, clean boundaries          |
//! | `coord` | coordinated (、 与 和 或者, X兵马、Y兵马) with an entity of the same type |
//! | `poly`  | single-character faction: an army stem (秦军), X人 (金人), 伐X/入X, 宋金辽元四朝 |
//! | `alias` | merged with names from an alias list, or 海阳 with 海阳城                 |
//! | `zi`    | courtesy name stated in the text (董卓字仲颖, 刘备，字玄德)               |
//! | `form`  | a surname + title form (柯爷, 苏五弟) bound to the one person the book names by it |
//! | `epithet` | a title or sobriquet written right before one full name at least three times (北刀韩千山), bound to that person |
//! | `same`  | two persons the text declares one (X就是Y, X，即Y也, X原名Y, 改名Y的X), merged |
//! | `order` | a surname + birth-order form (柯六郎) written right before one person's name (六郎北辰), bound to that person |
//! | `realm` | a founder's name the book mostly uses for his realm (X天下, X营): a faction |
//! | `exo`   | a direction + a word for foreigners (北番, 西戎: classes `direction` and `exonym` of `dict/chars.tsv`), said 3 times: a faction whatever the verbs around it |
//!
//! # Type decision order
//!
//! 1. Generic words and titles (`dict/generic.txt`, `dict/titles.txt`) are never entities.
//! 2. Lexicon factions are factions; lexicon places are places; a
//!    direction + a word for foreigners (北番) is a faction.
//! 3. A string ending with a strong army suffix (军, 兵, 骑兵 …) is never a
//!    person or place, nor is a one-character faction's camp or host
//!    (宋营, 宋师); it is an army if its stem is a faction, a place
//!    (listed, or accepted in step 4), a direction (南军), X家 (柯家军) or a
//!    repeated unknown stem that hardly occurs alone (神武军).
//! 4. Person or place, whichever scores higher: persons from the surname
//!    prior and person cues, places from the suffix class and
//!    movement/location cues; cues of the other kind count against.
//! 5. Person by statistics alone (no surname): frequent, strongly cued,
//!    varied neighbours, no word inside (智深).
//! 6. Place by cues alone (no suffix): repeated movement/location cues.
//! 7. Single-character factions last, from armies and polity contexts.
//!
//! Confidence is the winning score, capped at 1.
//!
//! # Where each part lives
//!
//! | module | job |
//! |---|---|
//! | `propose` | passes 1 and 2: candidates and their statistics |
//! | `judge` | the hand-written verdict on one candidate (person, place, army) |
//! | `features` | the learned model's features, with the per-book context model |
//! | this file | the decision order: rules, model, then the steps below |
//! | `resolve` | nested and straddling names, coordination, counts of people, army merging, factions |
//! | `aliases` | alias lists and courtesy names |
//! | `forms` | surname + title forms, forms of address (老韩, 阿彪), epithets, 大X/X朝 faction forms |
//! | `foreign` | transliterated names and towns, full names written with a dot |
//! | `curation` | the user's names and not-names, applied last |

use super::corpus::{self, extend_key, CharLengths, Key, Run, RunSlice, Runs, KEY_CHARS};
use super::lexicon::{CharClasses, CueClass, Lexicon, PlaceClass, TitlePosition};
use super::model::{self, Model};
use super::tagger::{Hints, Tagger};
use super::{Catalog, Entity, EntityType};
use crate::charset::CharSet;
use crate::hash::{FxMap, FxSet};
use crate::segment::Vocabulary;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::Mutex;
use std::time::Instant;

mod aliases;
mod curation;
mod features;
mod foreign;
mod forms;
mod judge;
mod propose;
mod resolve;
mod tagged;

use features::BookContext;
pub use features::{FEATURES, MIN_MODEL_COUNT};

/// A candidate new word for `zhnovel discover`.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub word: String,
    /// The type it would be catalogued as, if any.
    pub kind: Option<EntityType>,
    pub count: u64,
    /// Smallest pointwise mutual information (nats) over the split points.
    pub cohesion: f64,
    /// Entropy (nats) of the characters before / after it; punctuation counts as one.
    pub left_entropy: f64,
    pub right_entropy: f64,
    pub score: f64,
}

const CLASSES: usize = 10;

fn class_index(c: CueClass) -> usize {
    match c {
        CueClass::Speech => 0,
        CueClass::Action => 1,
        CueClass::Command => 2,
        CueClass::Movement => 3,
        CueClass::Location => 4,
        CueClass::Adverb => 5,
        CueClass::Function => 6,
        CueClass::Naming => 7,
        CueClass::Member => 8,
        CueClass::Same => 9,
    }
}

use crate::segment::WordTag as Tag;

#[derive(Debug, Clone, Copy)]
struct WordInfo {
    freq: usize,
    tag: Tag,
}

thread_local! {
    /// This thread's jieba look-ups (`Recognizer::word_info`), for the
    /// vocabulary of the given id.
    static WORD_INFO: std::cell::RefCell<(Option<u64>, FxMap<String, WordInfo>)> =
        std::cell::RefCell::new((None, FxMap::default()));
}

/// A book longer than this (in Han characters) drops strings the rules
/// proposed only once before counting: they could not be accepted anyway.
const LONG_BOOK: usize = 200_000;

/// Longest cue, title or suffix looked at, in characters.
const MAX_CUE: usize = 4;
/// Longest candidate proposed by the rules, in characters.
const MAX_CAND: usize = 6;

/// Builds entity catalogs. Holds the lexicon and lookup tables derived from it.
pub struct Recognizer {
    lex: Lexicon,
    vocab: Vocabulary,
    cues: FxMap<String, [u8; CLASSES]>,
    /// Characters that never belong to a given name (function characters,
    /// one-character speech and action verbs).
    not_given: CharSet,
    /// Function characters and one-character verbs, none excepted.
    verbish: CharSet,
    /// One-character verbs and adverbs that do not end a name (来, 见, 先).
    name_end_bad: CharSet,
    /// Function characters (`bnd` cues of dict/cues.txt).
    function_chars: CharSet,
    numerals: CharSet,
    /// Single-character factions that are polities (秦, 燕, 宋 …).
    factions_1: FxSet<String>,
    surnames: FxMap<String, u8>,
    titles: FxMap<String, TitlePosition>,
    /// Cues and titles of up to `MAX_CUE` characters, with every part they
    /// begin or end with, by key: what the context scans look up.
    affixes: FxMap<Key, Affix>,
    /// The named character classes of dict/chars.tsv.
    chars: &'static CharClasses,
    /// The maps the scans look up at every character, by key.
    surname_keys: FxMap<Key, u8>,
    suffix_keys: FxMap<Key, (bool, bool)>,
    lex_keys: FxMap<Key, ()>,
    /// First characters of surnames and of place or army suffixes.
    surname_first: CharSet,
    suffix_first: CharSet,
    /// Lexicon names (places, factions, aliases) and their first characters.
    lex_names: FxMap<String, ()>,
    lex_first: CharLengths,
    /// Sum of `lex.given_name_chars`.
    given_name_total: u64,
    /// The learned scorer of person and place candidates; `None` leaves
    /// the decision to the rules alone.
    model: Option<Model>,
    /// The learned tagger of single mentions (`tagger`); `None` leaves
    /// rare candidates to the rules.
    tagger: Option<Tagger>,
    /// What the tagger reads from the lexicon.
    hints: Hints,
}

/// Per-candidate corpus statistics.
#[derive(Debug, Default, Clone)]
struct Stat {
    count: u32,
    /// Occurrences with a strong cue of each class on the relevant side.
    say: u32,
    act: u32,
    cmd: u32,
    mov: u32,
    loc: u32,
    title: u32,
    /// Occurrences whose left / right edge is a run edge (punctuation).
    left_punct: u32,
    right_punct: u32,
    /// Occurrences whose left / right boundary cuts a common word and has no cue.
    left_bad: u32,
    right_bad: u32,
    /// Occurrences next to a function character on the left / right.
    left_function: u32,
    right_function: u32,
    /// Occurrences that are a whole clause after a movement cue (经由飞狐，).
    mov_clause: u32,
    /// Occurrences after a naming cue (叫做X).
    after_naming: u32,
    /// Occurrences after a demonstrative or classifier (那X, 这X, 一个X).
    after_demonstrative: u32,
    /// Occurrences with a strong person cue (weight 3, or a title).
    strong: u32,
    /// Occurrences after a numeral of magnitude (三千|X兵).
    after_count: u32,
    /// Occurrences before a count of troops (X骑|三千); not a feature of
    /// the learned model.
    before_count: u32,
    /// Occurrences whose last character starts a title (西门大|官人).
    right_title_cut: u32,
    /// Occurrences whose first character makes a dictionary word with the
    /// character before it (点|清军马).
    left_word_cut: u32,
    /// Only counted (a part of a candidate, for cohesion), no contexts.
    aux: bool,
    /// Distinct neighbouring characters and Σ c·ln c of their counts.
    left_distinct: u32,
    right_distinct: u32,
    left_clnc: f64,
    right_clnc: f64,
}

impl Stat {
    /// Adds the counts of another part of the book (the neighbour sums are
    /// computed after all parts are in).
    fn add(&mut self, o: &Stat) {
        self.count += o.count;
        self.say += o.say;
        self.act += o.act;
        self.cmd += o.cmd;
        self.mov += o.mov;
        self.loc += o.loc;
        self.title += o.title;
        self.left_punct += o.left_punct;
        self.right_punct += o.right_punct;
        self.left_bad += o.left_bad;
        self.right_bad += o.right_bad;
        self.left_function += o.left_function;
        self.right_function += o.right_function;
        self.mov_clause += o.mov_clause;
        self.after_naming += o.after_naming;
        self.after_demonstrative += o.after_demonstrative;
        self.strong += o.strong;
        self.after_count += o.after_count;
        self.before_count += o.before_count;
        self.right_title_cut += o.right_title_cut;
        self.left_word_cut += o.left_word_cut;
    }

    fn person_cues(&self) -> u32 {
        self.say + self.act + self.cmd + self.title
    }

    fn place_cues(&self) -> u32 {
        self.mov + self.loc
    }

    /// Always the same character after it, never punctuation: a piece of
    /// a longer word (黄巾|力士), if said often enough to tell.
    fn same_right(&self) -> bool {
        self.right_distinct == 1 && self.right_punct == 0
    }

    /// Always the same character before it, never punctuation.
    fn same_left(&self) -> bool {
        self.left_distinct == 1 && self.left_punct == 0
    }
}

/// The measured book: candidate statistics and neighbour distributions.
struct Measured<'a> {
    index: FxMap<Key, u32>,
    long_index: FxMap<&'a str, u32>,
    words: Vec<&'a str>,
    stats: Vec<Stat>,
    chars: FxMap<char, u32>,
    total_chars: u64,
    /// (candidate, neighbour) counts, sorted (see `Counts`).
    left: Vec<(u64, u32)>,
    right: Vec<(u64, u32)>,
}

impl<'a> Measured<'a> {
    fn stat(&self, w: &str) -> Option<&Stat> {
        self.id(w).map(|i| &self.stats[i])
    }

    /// A candidate's index in `words` and `stats`.
    fn id(&self, w: &str) -> Option<usize> {
        let id = match corpus::key_of(w) {
            Some(k) => self.index.get(&k),
            None => self.long_index.get(w),
        };
        id.filter(|&&i| i != PREFIX_ONLY).map(|&i| i as usize)
    }

    fn count(&self, w: &str) -> u32 {
        if w.chars().count() == 1 {
            return self
                .chars
                .get(&w.chars().next().expect("one char"))
                .copied()
                .unwrap_or(0);
        }
        self.stat(w).map_or(0, |s| s.count)
    }
}

/// Adds each (candidate, neighbour) count to its candidate's distinct count
/// and entropy sums.
/// The pairs come sorted, which fixes the order of the floating-point sums
/// whatever the thread count.
fn fold_side(pairs: &[(u64, u32)], stats: &mut [Stat], left: bool) {
    for &(pair, c) in pairs {
        let st = &mut stats[(pair >> 21) as usize];
        let c = c as f64;
        if left {
            st.left_distinct += 1;
            st.left_clnc += c * c.ln();
        } else {
            st.right_distinct += 1;
            st.right_clnc += c * c.ln();
        }
    }
}

/// Entropy from the count inside the run and the sum of c·ln c over the
/// neighbours, with `punct` occurrences at a run edge counted as one more
/// neighbour.
fn side_entropy(t_inner: u32, sum: f64, punct: u32) -> f64 {
    let p = punct as f64;
    let t = t_inner as f64 + p;
    if t == 0.0 {
        return 0.0;
    }
    let s = sum + if p > 0.0 { p * p.ln() } else { 0.0 };
    t.ln() - s / t
}

/// What the text just before a position says about a name starting there.
#[derive(Debug, Default, Clone, Copy)]
struct LeftFeat {
    /// After a demonstrative or classifier (那, 这, 个).
    dem: bool,
    /// After a numeral of magnitude: a count of troops (三千|X兵).
    counted: bool,
    /// The character before and the first one make a dictionary word.
    word: bool,
    cmd: u8,
    mov: u8,
    nam: u8,
    title: bool,
    function: bool,
    /// The boundary cuts a common word and no multi-character cue explains it.
    bad: bool,
}

/// What the text just after a position says about a name ending there.
#[derive(Debug, Default, Clone, Copy)]
struct RightFeat {
    /// Before a count of troops: a numeral and a numeral of magnitude
    /// (X骑|三千, X营|一万).
    counted: bool,
    /// The character before the boundary starts a title (大|官人).
    title_cut: bool,
    say: u8,
    act: u8,
    loc: u8,
    title: bool,
    function: bool,
    /// The boundary cuts a common word and no cue explains it.
    bad: bool,
}

/// Adds one occurrence's contexts to its candidate's statistics.
fn apply_feats(st: &mut Stat, l: LeftFeat, r: RightFeat, at_start: bool, at_end: bool) {
    if r.say >= 3 || r.act >= 3 || l.cmd >= 3 || l.title || r.title {
        st.strong += 1;
    }
    st.right_title_cut += u32::from(r.title_cut);
    if r.say >= 2 {
        st.say += 1;
    }
    if r.act >= 2 {
        st.act += 1;
    }
    if r.loc >= 2 {
        st.loc += 1;
    }
    if l.cmd >= 3 {
        st.cmd += 1;
    }
    if l.nam >= 2 {
        st.after_naming += 1;
    }
    if l.mov >= 2 {
        st.mov += 1;
        if at_end {
            st.mov_clause += 1;
        }
    }
    if l.title || r.title {
        st.title += 1;
    }
    if at_start {
        st.left_punct += 1;
    }
    if at_end {
        st.right_punct += 1;
    }
    st.left_function += u32::from(l.function);
    st.after_demonstrative += u32::from(l.dem);
    st.after_count += u32::from(l.counted);
    st.before_count += u32::from(r.counted);
    st.left_word_cut += u32::from(l.word);
    st.right_function += u32::from(r.function);
    st.left_bad += u32::from(l.bad);
    st.right_bad += u32::from(r.bad);
}

/// Candidate strings in the order proposed.
#[derive(Default)]
struct Table<'a> {
    /// By key; strings longer than a key holds (long lexicon names) by text.
    index: FxMap<Key, u32>,
    long: FxMap<&'a str, u32>,
    words: Vec<&'a str>,
    /// Only a part of a candidate (counted for cohesion).
    aux: Vec<bool>,
    /// How many times the rules proposed it.
    proposed: Vec<u32>,
}

impl<'a> Table<'a> {
    /// Adds a string (`key` is its key, if it fits one); proposed `n` more
    /// times unless it is only a part.
    fn add_n(&mut self, w: &'a str, key: Option<Key>, aux: bool, n: u32) {
        let found = match key {
            Some(k) => self.index.get(&k),
            None => self.long.get(w),
        };
        match found {
            Some(&i) => {
                if !aux {
                    self.aux[i as usize] = false;
                    self.proposed[i as usize] += n;
                }
            }
            None => {
                let i = self.words.len() as u32;
                match key {
                    Some(k) => self.index.insert(k, i),
                    None => self.long.insert(w, i),
                };
                self.words.push(w);
                self.aux.push(aux);
                self.proposed.push(if aux { 0 } else { n });
            }
        }
    }

    fn add(&mut self, w: &'a str, key: Option<Key>, aux: bool) {
        self.add_n(w, key, aux, 1);
    }

    /// Adds the strings of the table of a later part of the book: the same
    /// strings, order and counts as one scan over both parts.
    fn append(&mut self, later: Table<'a>) {
        if self.words.is_empty() {
            *self = later;
            return;
        }
        for (i, &w) in later.words.iter().enumerate() {
            self.add_n(w, corpus::key_of(w), later.aux[i], later.proposed[i]);
        }
    }

    /// Keeps only the strings proposed at least `min` times or listed in
    /// the lexicon (a long book's one-off proposals are noise and cost time).
    fn prune(&mut self, min: u32, keep: impl Fn(&str) -> bool) {
        let mut table = Table::default();
        for (i, &w) in self.words.iter().enumerate() {
            if self.proposed[i] >= min || keep(w) {
                table.add_n(w, corpus::key_of(w), self.aux[i], self.proposed[i]);
            }
        }
        *self = table;
    }
}

/// `CandidateIndex` slot of a string that only begins candidates.
const PREFIX_ONLY: u32 = u32::MAX;

/// What the counting scan looks up: each candidate by key, and every
/// shorter beginning of one (as `PREFIX_ONLY` unless a candidate itself),
/// so the scan stops extending a string as soon as no candidate starts so.
struct CandidateIndex<'t, 'a> {
    /// A bit per hashed pair of first characters: most positions of a book
    /// start no candidate, and this answers so from a table that stays in
    /// the cache, where `keys` does not.
    first_two: Vec<u64>,
    keys: FxMap<Key, u32>,
    long: &'t FxMap<&'a str, u32>,
    aux: &'t [bool],
    max_len: usize,
}

impl<'t, 'a> CandidateIndex<'t, 'a> {
    fn new(table: &'t Table<'a>) -> CandidateIndex<'t, 'a> {
        let mut keys = table.index.clone();
        let mut max_len = 0;
        let mut first_two = vec![0u64; FIRST_TWO_BITS / 64];
        for &w in table.words.iter() {
            let chars: Vec<char> = w.chars().collect();
            max_len = max_len.max(chars.len());
            if let [a, b, ..] = chars[..] {
                let bit = first_two_bit(a, b);
                first_two[bit / 64] |= 1 << (bit % 64);
            }
            for len in 2..chars.len().min(KEY_CHARS + 1) {
                if let Some(k) = corpus::key_of_chars(&chars[..len]) {
                    keys.entry(k).or_insert(PREFIX_ONLY);
                }
            }
        }
        CandidateIndex {
            first_two,
            keys,
            long: &table.long,
            aux: &table.aux,
            max_len,
        }
    }
}

impl CandidateIndex<'_, '_> {
    /// Whether some candidate may start with `a` `b` (false: none does).
    #[inline]
    fn may_start(&self, a: char, b: char) -> bool {
        let bit = first_two_bit(a, b);
        self.first_two[bit / 64] & (1 << (bit % 64)) != 0
    }
}

/// Size of `CandidateIndex::first_two` (256 KiB).
const FIRST_TWO_BITS: usize = 1 << 21;

#[inline]
fn first_two_bit(a: char, b: char) -> usize {
    let pair = ((a as u64) << 21) | b as u64;
    (pair.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - 21)) as usize
}

/// What two characters side by side are in jieba's dictionary (a word, a
/// common word), looked up about once per thread and pair: each thread
/// keeps its own cache for all the slices it counts, so no look-up takes a
/// lock.
struct Bigrams {
    /// By position in the current run (several features read each).
    at: Vec<Option<(bool, bool)>>,
    /// A direct-mapped cache: a pair's code and flags (`code << 2 | word << 1
    /// | common`) in the slot its hash picks, 0 when empty. One load per
    /// look-up, where a hash map costs two cache misses.
    local: Vec<u64>,
}

/// Size of `Bigrams::local` (2^16 slots, 512 KiB).
const LOCAL_BIGRAM_BITS: u32 = 16;

/// Each distinct value with its count, sorted.
fn tally(mut values: Vec<u64>) -> Vec<(u64, u32)> {
    values.sort_unstable();
    values
        .chunk_by(|a, b| a == b)
        .map(|g| (g[0], g.len() as u32))
        .collect()
}

/// Two sorted tallies as one. The result is allocated at its size (counted
/// first): the merged tallies of a long book are tens of megabytes, and a
/// list grown by doubling may hold twice that.
fn merge_tallies(a: Vec<(u64, u32)>, b: Vec<(u64, u32)>) -> Vec<(u64, u32)> {
    let mut out = Vec::with_capacity(merged_len(&a, &b));
    let (mut a, mut b) = (a.into_iter().peekable(), b.into_iter().peekable());
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) if x.0 == y.0 => {
                let (k, n) = (x.0, x.1 + y.1);
                a.next();
                b.next();
                (k, n)
            }
            (Some(x), Some(y)) if x.0 < y.0 => a.next().expect("peeked"),
            (Some(_), Some(_)) => b.next().expect("peeked"),
            (Some(_), None) => a.next().expect("peeked"),
            (None, Some(_)) => b.next().expect("peeked"),
            (None, None) => return out,
        };
        out.push(next);
    }
}

/// How many distinct values two sorted tallies hold together.
fn merged_len(a: &[(u64, u32)], b: &[(u64, u32)]) -> usize {
    let (mut i, mut j, mut both) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                both += 1;
                i += 1;
                j += 1;
            }
        }
    }
    a.len() + b.len() - both
}

/// Pairs listed before they are counted (2 MB a list).
const PAIR_BATCH: usize = 1 << 18;

/// The (candidate, neighbouring character) pairs of a scan as it meets
/// them, counted a batch at a time: a list of every occurrence would grow
/// with the book.
#[derive(Default)]
struct PairTally {
    batch: Vec<u64>,
    counted: Vec<(u64, u32)>,
}

impl PairTally {
    #[inline]
    fn push(&mut self, pair: u64) {
        if self.batch.len() == PAIR_BATCH {
            self.fold();
        }
        self.batch.push(pair);
    }

    fn fold(&mut self) {
        if self.batch.is_empty() {
            return;
        }
        let batch = tally(std::mem::take(&mut self.batch));
        self.counted = merge_tallies(std::mem::take(&mut self.counted), batch);
    }

    /// Adds the pairs another scan tallied.
    fn add(&mut self, mut other: PairTally) {
        self.fold();
        other.fold();
        self.counted = merge_tallies(std::mem::take(&mut self.counted), other.counted);
    }

    /// Each pair with its count, sorted.
    fn finish(mut self) -> Vec<(u64, u32)> {
        self.fold();
        self.counted
    }
}

/// A (candidate, neighbouring character) pair as one map key.
#[inline]
fn neighbour(id: u32, c: char) -> u64 {
    ((id as u64) << 21) | c as u64
}

/// The counts of pass 2 over some runs; parts of the book add up.
struct Counts {
    stats: Vec<Stat>,
    /// Every (candidate, neighbouring character) pair seen, as a
    /// `neighbour` key, with its count. (The scan appends the pairs to a
    /// list and counts them once sorted: a hash map entry per occurrence
    /// costs a cache miss each.)
    left: PairTally,
    right: PairTally,
    chars: FxMap<char, u32>,
    total_chars: u64,
}

impl Counts {
    fn new(candidates: usize) -> Counts {
        Counts {
            stats: vec![Stat::default(); candidates],
            left: PairTally::default(),
            right: PairTally::default(),
            chars: FxMap::default(),
            total_chars: 0,
        }
    }

    fn add(&mut self, other: Counts) {
        if self.total_chars == 0 {
            *self = other;
            return;
        }
        for (mine, theirs) in self.stats.iter_mut().zip(&other.stats) {
            mine.add(theirs);
        }
        self.left.add(other.left);
        self.right.add(other.right);
        for (k, v) in other.chars {
            *self.chars.entry(k).or_insert(0) += v;
        }
        self.total_chars += other.total_chars;
    }
}

/// Names (decided ones, mostly), asked whether one of them holds a string
/// (`in_one`) or a string holds one of them (`holds_one`) in a few
/// look-ups: a search through every name costs a comparison per name, and
/// the passes that ask do so for thousands of strings.
struct NameParts<'a> {
    names: FxSet<&'a str>,
    /// Every non-empty substring of every name.
    parts: FxSet<&'a str>,
}

impl<'a> NameParts<'a> {
    fn new(names: impl IntoIterator<Item = &'a str>) -> NameParts<'a> {
        let names: FxSet<&'a str> = names.into_iter().collect();
        let parts = names.iter().flat_map(|n| substrings(n)).collect();
        NameParts { names, parts }
    }

    /// Whether some name contains `w`.
    fn in_one(&self, w: &str) -> bool {
        !self.names.is_empty() && (w.is_empty() || self.parts.contains(w))
    }

    /// Whether `w` contains some name.
    fn holds_one(&self, w: &str) -> bool {
        self.names.contains("") || substrings(w).iter().any(|p| self.names.contains(p))
    }
}

/// Every non-empty substring of `w`, on character boundaries.
fn substrings(w: &str) -> Vec<&str> {
    let bounds: Vec<usize> = w
        .char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(w.len()))
        .collect();
    let mut out = Vec::new();
    for (a, &start) in bounds.iter().enumerate() {
        for &end in &bounds[a + 1..] {
            out.push(&w[start..end]);
        }
    }
    out
}

/// A decided entity before aliases and merging.
#[derive(Debug, Clone)]
struct Decided {
    name: String,
    kind: EntityType,
    score: f64,
    evidence: BTreeSet<&'static str>,
    aliases: BTreeSet<String>,
    count: u32,
}

impl Recognizer {
    /// A recognizer with its own copy of jieba's default dictionary (a
    /// plan that also segments shares one: `with_vocabulary`).
    pub fn new(lexicon: Lexicon) -> Recognizer {
        Recognizer::with_vocabulary(lexicon, Vocabulary::load())
    }

    /// A recognizer reading `vocab` as its vocabulary of common words.
    pub fn with_vocabulary(lexicon: Lexicon, vocab: Vocabulary) -> Recognizer {
        let lexicon_given_total: u64 = lexicon
            .given_name_chars
            .values()
            .map(|&n| n as u64)
            .sum::<u64>()
            .max(1);
        let mut cues: FxMap<String, [u8; CLASSES]> = FxMap::default();
        for (word, list) in &lexicon.cues {
            let e = cues.entry(word.clone()).or_insert([0; CLASSES]);
            for c in list {
                e[class_index(c.class)] = c.weight;
            }
        }
        let function_chars: CharSet = lexicon
            .cues
            .iter()
            .filter(|(w, cs)| {
                w.chars().count() == 1 && cs.iter().any(|c| c.class == CueClass::Function)
            })
            .filter_map(|(w, _)| w.chars().next())
            .collect();
        let mut not_given = function_chars.clone();
        for (w, cs) in &lexicon.cues {
            let strong_verb = cs
                .iter()
                .any(|c| matches!(c.class, CueClass::Speech | CueClass::Action) && c.weight >= 2);
            if w.chars().count() == 1 && strong_verb {
                not_given.extend(w.chars());
            }
        }
        // 秦军掩, 武军舍: an army word is never inside a given name here.
        not_given.extend(['军', '兵']);
        // 高姓|大名: words about names are not in them (but see `clan`).
        not_given.extend(CharClasses::builtin().name_word.iter());
        // Verbs and function characters, before names are let in again: the
        // edges of a name without a surname (来寻, 看罢).
        let mut name_end_bad = CharSet::new();
        for (w, cs) in &lexicon.cues {
            let verb = cs.iter().any(|c| {
                matches!(
                    c.class,
                    CueClass::Speech | CueClass::Action | CueClass::Command | CueClass::Movement
                ) && c.weight >= 2
                    || c.class == CueClass::Adverb
            });
            if w.chars().count() == 1 && verb {
                name_end_bad.extend(w.chars());
            }
        }
        // Common at the end of names although they are cues (乐和, 朱同, 宋万).
        for c in "和同安平文明仁德信成云一二三四五六七八九十百千万两".chars()
        {
            name_end_bad.remove(&c);
        }
        let mut verbish = not_given.clone();
        for (w, cs) in &lexicon.cues {
            let verb = cs.iter().any(|c| {
                matches!(c.class, CueClass::Command | CueClass::Movement) && c.weight >= 2
            });
            if w.chars().count() == 1 && verb {
                verbish.extend(w.chars());
            }
        }
        // Characters common in given names although they are also cues or
        // function characters (张三, 宋万, 雷千峰, 匡若愚, 王羲之).
        let chars = CharClasses::builtin();
        for c in chars.given_ok.iter() {
            not_given.remove(&c);
        }
        let numerals = chars.numeral.clone();
        let factions_1 = lexicon
            .factions
            .iter()
            .filter(|f| f.chars().count() == 1)
            .cloned()
            .collect();
        let mut alias_of = BTreeMap::new();
        for (canonical, aliases) in &lexicon.aliases {
            for a in aliases {
                alias_of
                    .entry(a.clone())
                    .or_insert_with(|| canonical.clone());
            }
        }
        let surnames = lexicon
            .surnames
            .iter()
            .map(|(k, v)| (k.clone(), *v))
            .collect();
        let titles = lexicon
            .titles
            .iter()
            .map(|(k, v)| (k.clone(), *v))
            .collect();
        let mut suffixes: FxMap<String, (bool, bool)> = FxMap::default();
        for k in lexicon.place_suffixes.keys() {
            suffixes.entry(k.clone()).or_default().0 = true;
        }
        for k in lexicon.army_suffixes.keys() {
            suffixes.entry(k.clone()).or_default().1 = true;
        }
        // Faction suffixes propose their stems as place suffixes do.
        for k in lexicon.faction_suffixes.keys() {
            suffixes.entry(k.clone()).or_default().0 = true;
        }
        let suffix_keys = by_key(&suffixes);
        let surname_first: CharSet = lexicon
            .surnames
            .keys()
            .filter_map(|w| w.chars().next())
            .collect();
        let suffix_first: CharSet = suffixes.keys().filter_map(|w| w.chars().next()).collect();
        let mut lex_names: FxMap<String, ()> = FxMap::default();
        let mut lex_first = CharLengths::default();
        let all_names = lexicon
            .places
            .iter()
            .chain(lexicon.factions.iter())
            .chain(lexicon.armies.iter())
            .chain(
                lexicon
                    .aliases
                    .iter()
                    .flat_map(|(c, a)| std::iter::once(c).chain(a.iter())),
            );
        for w in all_names {
            let len = w.chars().count();
            if let (Some(c), 2..=8) = (w.chars().next(), len) {
                lex_first.raise(c, len);
                lex_names.insert(w.clone(), ());
            }
        }
        let hints = Hints::from_lexicon(&lexicon).with_vocabulary(vocab.clone());
        Recognizer {
            hints,
            tagger: builtin_tagger(),
            affixes: affixes(&cues, &titles),
            chars,
            surname_keys: by_key(&surnames),
            suffix_keys,
            lex_keys: by_key(&lex_names),
            lex: lexicon,
            // jieba's default dictionary as a vocabulary of common words
            // (never its tags as proof of a name: they are wrong half the time).
            vocab,
            cues,
            not_given,
            function_chars,
            numerals,
            factions_1,
            verbish,
            name_end_bad,
            surnames,
            titles,
            lex_names,
            lex_first,
            surname_first,
            suffix_first,
            given_name_total: lexicon_given_total,
            model: builtin_model(),
        }
    }

    /// This recognizer with another tagger, or none.
    pub fn with_tagger(mut self, tagger: Option<Tagger>) -> Recognizer {
        self.tagger = tagger;
        self
    }

    /// What the tagger reads from the lexicon (for `zhnovel train`).
    pub fn tagger_hints(&self) -> &Hints {
        &self.hints
    }

    /// This recognizer with another learned model, or none (rules alone).
    pub fn with_model(mut self, model: Option<Model>) -> Recognizer {
        self.model = model;
        self
    }

    /// Every candidate the learned model would judge, with its count and
    /// features (in `FEATURES` order), in the order first seen: the rows
    /// `zhnovel train` labels from an answer key.
    pub fn feature_rows(&self, chapters: &[&str]) -> Vec<(String, u32, Vec<f32>)> {
        let store = corpus::RunStore::new(chapters);
        let runs = store.runs();
        let m = self.measure(&runs, false, &mut Phases::default());
        let (rule, ctx) = self.rule_verdicts(&m);
        m.words
            .par_iter()
            .enumerate()
            .filter(|&(i, &w)| self.model_judges(w, &m.stats[i]))
            .map(|(i, &w)| {
                let st = &m.stats[i];
                let scores = rule_scores(&rule[i]);
                (
                    w.to_string(),
                    st.count,
                    self.features(i, w, st, &m, &ctx, scores),
                )
            })
            .collect()
    }

    /// The lexicon this recognizer was built with.
    pub fn lexicon(&self) -> &Lexicon {
        &self.lex
    }

    /// Builds the catalog of one book. `chapters` are the cleaned, Simplified
    /// chapter texts, in order.
    pub fn discover(&self, chapters: &[&str]) -> Catalog {
        let t = Instant::now();
        let mut phases = Phases::default();
        let store = corpus::RunStore::new(chapters);
        let runs = store.runs();
        phases.mark(t, "runs");
        let measured = self.measure(&runs, false, &mut phases);
        phases.mark(t, "measure");
        let decided = self.decide(&runs, &measured, &mut phases);
        phases.mark(t, "decide");
        let catalog = Catalog::new(
            decided
                .into_iter()
                .map(|d| Entity {
                    name: d.name,
                    kind: d.kind,
                    aliases: d.aliases.into_iter().collect(),
                    evidence: d.evidence.into_iter().map(str::to_string).collect(),
                    confidence: d.score.clamp(0.0, 1.0) as f32,
                })
                .collect(),
        );
        catalog.with_phases(phases)
    }

    /// Candidate new words with their statistics and guessed type, for a
    /// user to review: every proposed string seen at least twice (once in a
    /// text under 20 000 characters) that is not a generic word, sorted by
    /// score (descending), then word.
    pub fn candidates(&self, chapters: &[&str]) -> Vec<Candidate> {
        let store = corpus::RunStore::new(chapters);
        let runs = store.runs();
        let measured = self.measure(&runs, true, &mut Phases::default());
        let decided = self.decide(&runs, &measured, &mut Phases::default());
        // Names and aliases (金人 is the faction 金) carry their entity's type.
        let kind_of: BTreeMap<&str, (EntityType, f64)> = decided
            .iter()
            .flat_map(|d| {
                std::iter::once(d.name.as_str())
                    .chain(d.aliases.iter().map(String::as_str))
                    .map(move |n| (n, (d.kind, d.score)))
            })
            .collect();
        let min_count = if measured.total_chars < 20_000 { 1 } else { 2 };
        let mut out = Vec::new();
        for (id, word) in measured.words.iter().enumerate() {
            let st = &measured.stats[id];
            if st.aux || st.count < min_count || self.is_generic(word) || word.chars().count() < 2 {
                continue;
            }
            let le = side_entropy(st.count - st.left_punct, st.left_clnc, st.left_punct);
            let re = side_entropy(st.count - st.right_punct, st.right_clnc, st.right_punct);
            let coh = self.cohesion(word, &measured);
            let decided = kind_of.get(word).copied();
            let stat_score =
                (1.0 + st.count as f64).ln() * (0.2 + le.min(re)) * (coh.max(0.0) / 5.0).min(1.0);
            let score = match decided {
                Some((_, s)) => 1.0 + s + stat_score,
                None => stat_score,
            };
            out.push(Candidate {
                word: word.to_string(),
                kind: decided.map(|d| d.0),
                count: st.count as u64,
                cohesion: coh,
                left_entropy: le,
                right_entropy: re,
                score,
            });
        }
        out.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| a.word.cmp(&b.word))
        });
        out
    }

    // ----- lookups -----------------------------------------------------------

    fn cue(&self, w: &str, class: CueClass) -> u8 {
        self.cues.get(w).map_or(0, |c| c[class_index(class)])
    }

    fn is_function_char(&self, c: char) -> bool {
        self.function_chars.contains(&c)
    }

    /// Two characters, the second a function character (`bnd` of
    /// dict/cues.txt: never ends a name) and the first no real surname
    /// (weight above 1): an adverb or conjunction (俱各, 莫若), not a name
    /// (苏才, 石三: a surname and a given name that is also a function word).
    fn function_word_pair(&self, w: &str) -> bool {
        let chars: Vec<char> = w.chars().collect();
        chars.len() == 2
            && self.is_function_char(chars[1])
            && self
                .surname(&chars, w)
                .is_none_or(|(_, weight)| weight <= 1)
    }

    /// Whether a string starts with a classical pronoun (汝居 "you hold",
    /// 伊弟 "his brother"; `pronoun_classical` of `dict/chars.tsv`) and no
    /// two-character surname (伊藤), or with a word for "our" or "your"
    /// (本宗 "our sect", 敝派; `self_other`) that is no real surname: what
    /// the tagger reads as a name there is a phrase, though 汝 and 伊 are
    /// also rare surnames.
    fn pronoun_phrase(&self, w: &str) -> bool {
        let chars: Vec<char> = w.chars().collect();
        let Some(first) = chars.first() else {
            return false;
        };
        let surname = self.surname(&chars, w);
        (self.chars.pronoun_classical.contains(first) && surname.is_none_or(|(len, _)| len < 2))
            || (self.chars.self_other.contains(first)
                && surname.is_none_or(|(_, weight)| weight < 2))
    }

    /// A listed generic word or title, or a phrase that starts with a
    /// personal pronoun (他二人, 我军) or a group word (众弟兄).
    fn is_generic(&self, w: &str) -> bool {
        self.lex.generic.contains(w)
            || self.lex.titles.contains_key(w)
            || w.chars()
                .next()
                .is_some_and(|c| self.chars.pronoun.contains(&c) || self.chars.group.contains(&c))
            || self.demonstrative_phrase(w)
            // 闻言, 笑道, 率兵: a context cue is no name (jieba tags 闻言 nr).
            || (w.chars().nth(1).is_some() && self.cues.contains_key(w))
    }

    /// A demonstrative + an ordinary word of two or more characters (那妇人,
    /// 这汉子, 那武生): a description, not a name, though 那 is also a
    /// surname.
    fn demonstrative_phrase(&self, w: &str) -> bool {
        let mut chars = w.chars();
        let Some(first) = chars.next() else {
            return false;
        };
        let rest = chars.as_str();
        self.chars.demonstrative.contains(&first)
            && rest.chars().nth(1).is_some()
            && self.is_plain_word(rest)
    }

    /// jieba's dictionary entry for a word (frequency, tag). A look-up
    /// costs two segmentations, so each thread caches its own answers: the
    /// per-candidate path takes no lock.
    fn word_info(&self, w: &str) -> Option<WordInfo> {
        if !self.vocab.has_word(w) {
            return None;
        }
        WORD_INFO.with(|cache| {
            let mut cache = cache.borrow_mut();
            if cache.0 != Some(self.vocab.id()) {
                *cache = (Some(self.vocab.id()), FxMap::default());
            }
            if let Some(&info) = cache.1.get(w) {
                return Some(info);
            }
            let info = WordInfo {
                freq: self.vocab.suggest_freq(w),
                tag: self.vocab.word_tag(w)?,
            };
            cache.1.insert(w.to_string(), info);
            Some(info)
        })
    }

    fn tag_of(&self, w: &str) -> Option<Tag> {
        self.word_info(w).map(|i| i.tag)
    }

    /// A dictionary word used at least `freq` times in jieba's corpus.
    fn is_frequent_word(&self, w: &str, freq: usize) -> bool {
        self.word_info(w).is_some_and(|i| i.freq >= freq)
    }

    /// Surname prefix length and weight, compound first. A surname that is
    /// also a function character (于, 何, 万 …) weighs at most 1.
    fn surname(&self, chars: &[char], s: &str) -> Option<(usize, u8)> {
        if chars.len() >= 3 {
            let two: String = chars[..2].iter().collect();
            if let Some(&w) = self.surnames.get(&two) {
                return Some((2, w));
            }
        }
        let one = &s[..chars[0].len_utf8()];
        self.surnames.get(one).map(|&w| {
            let w = if self.is_function_char(chars[0]) {
                w.min(1)
            } else {
                w
            };
            (1, w)
        })
    }

    /// Place suffix at the end of `s`: (suffix length in chars, class, weight).
    fn place_suffix(&self, s: &str) -> Option<(usize, PlaceClass, u8)> {
        let chars: Vec<char> = s.chars().collect();
        for len in [2usize, 1] {
            if chars.len() <= len {
                continue;
            }
            let suf: String = chars[chars.len() - len..].iter().collect();
            if let Some(p) = self.lex.place_suffixes.get(&suf) {
                return Some((len, p.class, p.weight));
            }
        }
        None
    }

    /// Army suffix at the end of `s`: (suffix length, weight).
    fn army_suffix(&self, s: &str) -> Option<(usize, u8)> {
        let chars: Vec<char> = s.chars().collect();
        for len in [3usize, 2, 1] {
            if chars.len() <= len {
                continue;
            }
            let suf: String = chars[chars.len() - len..].iter().collect();
            if let Some(&w) = self.lex.army_suffixes.get(&suf) {
                return Some((len, w));
            }
        }
        None
    }

    fn is_faction_stem(&self, stem: &str) -> bool {
        self.lex.factions.contains(stem) && !stem.ends_with('人')
    }

    // ----- pass 1 and 2: candidates and statistics ----------------------------

    // ----- decision ------------------------------------------------------------

    fn decide(&self, runs: &Runs, m: &Measured, phases: &mut Phases) -> Vec<Decided> {
        let t0 = Instant::now();
        // Phase 1: persons, places and lexicon factions.
        // Each candidate on its own, in parallel (then sorted by name): the
        // rules first, then the learned model over the candidates it knows,
        // reading the rules' verdicts and the book's context model.
        let (rule, ctx) = self.rule_verdicts(m);
        // The model learned from chapters and books, not from snippets.
        let long_enough = m.total_chars >= MODEL_MIN_CHARS;
        let short = m.total_chars < SHORT_TEXT;
        phases.mark(t0, "decide: rules");
        // Each verdict, and whether the model was sure the string is no
        // name (then the tagger does not overrule it).
        let verdicts: Vec<(Option<Decided>, bool)> = m
            .words
            .par_iter()
            .enumerate()
            .map(|(i, &w)| {
                let st = &m.stats[i];
                match &self.model {
                    Some(model)
                        if long_enough
                            && self.model_judges(w, st)
                            && rule[i].as_ref().is_none_or(|d| {
                                d.kind != EntityType::Faction
                                    || self.surnamed_suffix_faction(w, d, st)
                            }) =>
                    {
                        let x = self.features(i, w, st, m, &ctx, rule_scores(&rule[i]));
                        let p = model.predict(&x);
                        if rule[i]
                            .as_ref()
                            .is_some_and(|d| d.kind == EntityType::Faction)
                        {
                            let person = p[model::PERSON] >= SURNAMED_FACTION_PERSON_MIN;
                            let verdict = if person {
                                self.model_verdict(w, st, p, None, short)
                            } else {
                                rule[i].clone()
                            };
                            return (verdict, false);
                        }
                        let p = self
                            .person_behind_place_shape(w, st, &x, p, rule[i].as_ref(), model)
                            .unwrap_or(p);
                        let rule_i = rule[i]
                            .as_ref()
                            .filter(|r| !(short && self.cueless_word(r, st, &x)));
                        let verdict = self.model_verdict(w, st, p, rule_i, short);
                        let verdict = match verdict {
                            None if self.frequent_moved_place(w, st, p, m) => Some(decided(
                                w,
                                EntityType::Place,
                                f64::from(p[model::PLACE]),
                                &["sfx", "mov", "stat"],
                                st,
                            )),
                            None if self.frequent_clause_opener(w, st, p, m) => Some(decided(
                                w,
                                EntityType::Person,
                                f64::from(p[model::PERSON]),
                                &["sur", "stat", "opener"],
                                st,
                            )),
                            v => v,
                        };
                        (verdict, p[model::NONE] >= SHORT_TEXT_VETO)
                    }
                    _ => (rule[i].clone(), false),
                }
            })
            .collect();
        let refused: HashSet<&str> = m
            .words
            .iter()
            .zip(&verdicts)
            .filter(|(_, v)| v.1)
            .map(|(&w, _)| w)
            .collect();
        // The rules' places the model refused in a chapter-sized text.
        let refused_places: Vec<Decided> = if short {
            rule.iter()
                .zip(&verdicts)
                .filter(|(_, v)| v.1 && v.0.is_none())
                .filter_map(|(r, _)| r.clone())
                .filter(|d| d.kind == EntityType::Place)
                .collect()
        } else {
            Vec::new()
        };
        // Persons that name several people (王马二人, and 王马 said before it).
        let groups = self.group_names(m);
        let group = |d: &Decided| {
            d.kind == EntityType::Person
                && (self.counts_people(&d.name) || groups.contains(d.name.as_str()))
        };
        let mut first: Vec<Decided> = verdicts
            .into_iter()
            .filter_map(|v| v.0)
            .filter(|d| !group(d))
            .collect();
        first.sort_by(|a, b| a.name.cmp(&b.name).then(a.kind.cmp(&b.kind)));
        phases.mark(t0, "decide: judge");
        // The model's word on a rare name the tagger reads: it does not
        // judge names said once or twice, but a `none` this sure stands
        // (鼓足余勇: 余 a surname, 勇 a given name, the phrase no name).
        let model_refuses = |w: &str| -> bool {
            let (Some(model), Some(i)) = (&self.model, m.id(w)) else {
                return false;
            };
            let x = self.features(i, w, &m.stats[i], m, &ctx, rule_scores(&rule[i]));
            model.predict(&x)[model::NONE] >= TAGGED_VETO
        };
        let first = self.add_tagged(first, runs, m, &refused, &model_refuses);
        let first = self.add_family_villages(first, m);
        let first = self.add_titled_sobriquets(first, m);
        let first = self.add_shaped_names(first, m, Recognizer::clan_name, &["sur", "clan"]);
        let first =
            self.add_shaped_names(first, m, Recognizer::function_surname_name, &["sur", "say"]);
        let first = self.add_named_arrays(first, runs);
        let first = self.add_chapter_adepts(first, runs, m);
        let first = self.add_function_char_names(first, runs);
        let first = self.drop_handled_objects(first, runs, m);
        let first = self.drop_pointed_roles(first, m);
        let first = self.drop_group_nouns(first, runs);
        let first = self.add_framed_places(first, &refused_places, runs);
        let first = self.add_addressed_places(first, runs, m);
        phases.mark(t0, "decide: tagged");
        let first = self.drop_lex_in_idioms(first, runs);
        let first = self.drop_direction_positions(first, runs);
        let first = self.resolve_nested(first, runs);
        phases.mark(t0, "decide: nested");
        let first = self.drop_overlapped(first, runs);
        phases.mark(t0, "decide: overlapped");
        // Coordination: 润州或者迁州, 乙室拔业兵马、刘延庆兵马.
        let first = self.add_coordinated(first, runs, m);
        // After coordination, which reads 韩柯 in 石韩柯 as a third name.
        let first = self.drop_surname_pairs(first, runs);
        phases.mark(t0, "decide: coordinated");
        // 晁盖庄, 宋江寨: a person's manor or camp is named by the person.
        let persons: HashSet<String> = first
            .iter()
            .filter(|d| d.kind == EntityType::Person)
            .map(|d| d.name.clone())
            .collect();
        let first: Vec<Decided> = first
            .into_iter()
            .filter(|d| {
                d.kind != EntityType::Place
                    || d.evidence.contains("lex")
                    || !self.place_suffix(&d.name).is_some_and(|(l, _, _)| {
                        let stem: String =
                            d.name.chars().take(d.name.chars().count() - l).collect();
                        persons.contains(&stem)
                    })
            })
            .collect();
        // Phase 2: armies, whose stems may be phase-1 places or factions
        // (北燕人马).
        let stems: HashSet<&str> = first
            .iter()
            .filter(|d| matches!(d.kind, EntityType::Place | EntityType::Faction))
            .map(|d| d.name.as_str())
            .collect();
        let mut armies: Vec<Decided> = m
            .words
            .par_iter()
            .zip(&m.stats)
            .filter(|(_, st)| !st.aux && st.count > 0)
            .filter_map(|(&w, st)| self.judge_army(w, st, m, &stems))
            .collect();
        armies.sort_by(|a, b| a.name.cmp(&b.name));
        phases.mark(t0, "decide: armies");
        let armies = self.resolve_nested(armies, runs);
        phases.mark(t0, "decide: nested armies");
        let first = drop_persons_taken_as_armies(first, &armies, |w| {
            m.stat(w).is_some_and(|st| self.counted_troops(w, st))
        });
        let mut all: Vec<Decided> = first
            .into_iter()
            .filter(|d| !place_only_inside_armies(d, &armies))
            .collect();
        all.extend(armies);
        // 清军马 inside 张清军马: an army straddling a stronger person goes.
        let all = self.drop_overlapped(all, runs);
        phases.mark(t0, "decide: overlapped armies");
        let (armies, mut all): (Vec<Decided>, Vec<Decided>) =
            all.into_iter().partition(|d| d.kind == EntityType::Army);
        let armies = self.add_slang_armies(armies, runs);
        let armies = self.add_unit_armies(armies, runs, short);
        all.extend(self.merge_armies(armies));
        let all = self.add_factions(all, runs);
        let all = self.add_sects(all, runs);
        let all = self.add_named_sects(all, runs);
        let all = self.add_empires(all, runs);
        let all = self.add_titled_sects(all, runs, m);
        let all = self.add_bound_factions(all, runs, m);
        let all = self.add_polity_stems(all, runs, m);
        phases.mark(t0, "decide: factions");
        let all = self.add_aliases(all, runs, m);
        phases.mark(t0, "decide: alias lists");
        let all = self.add_stated_names(all, runs);
        phases.mark(t0, "decide: stated names");
        let all = self.drop_homograph_factions(all, runs);
        let all = self.drop_homograph_places(all, runs);
        let all = self.drop_split_places(all, runs);
        let all = self.drop_house_parts(all);
        let all = self.places_by_context(all, m);
        let all = self.states_as_factions(all, runs);
        let all = self.merge_faction_forms(all);
        let all = self.bind_consort_forms(all, runs);
        // Surname + title forms the candidates hold but no rule or model
        // took (韩团长: the model learned its titles from classical books)
        // are bound too, or else dropped after the second binding.
        let all = self.add_form_candidates(all, m, runs);
        let all = self.add_address_forms(all, runs);
        let all = self.add_foreign_names(all, runs);
        let all = self.add_ranked_foreigners(all, runs);
        let all = self.bind_dotted_names(all, runs);
        let all = self.bind_title_forms(all, runs);
        phases.mark(t0, "decide: title forms");
        let all = self.bind_epithets(all, runs);
        let all = self.bind_introduced_epithets(all, runs);
        phases.mark(t0, "decide: epithets");
        let all = self.bind_declared(all, runs);
        phases.mark(t0, "decide: declared");
        let all = self.bind_birth_order(all, runs);
        let all = self.bind_faction_prefixed(all);
        phases.mark(t0, "decide: birth order");
        // Again, now that epithets say their person's chapters too.
        let all = self.bind_title_forms(all, runs);
        let all = self.settle_unbound_forms(all, short);
        // After the forms: a given name's mentions (安人 of 岳安人 is
        // also a lady's title) must not lend chapters to its person.
        let all = self.bind_vocative_given_names(all, runs);
        phases.mark(t0, "decide: title forms again");
        let mut all = self.realm_names(all, runs);
        // Again: coordination (陆鲁、…) may have proposed one.
        all.retain(|d| !group(d));
        let mut all = self.apply_user(all, m);
        phases.mark(t0, "decide: aliases");
        all.sort_by(|a, b| a.kind.cmp(&b.kind).then_with(|| a.name.cmp(&b.name)));
        all
    }

    /// The rules' phase-1 verdict on every candidate (by index), and the
    /// book's context model learned from them.
    fn rule_verdicts(&self, m: &Measured) -> (Vec<Option<Decided>>, BookContext) {
        let rule: Vec<Option<Decided>> = m
            .words
            .par_iter()
            .zip(&m.stats)
            .map(|(&w, st)| {
                if st.aux || st.count == 0 {
                    None
                } else {
                    self.judge(w, st, m)
                }
            })
            .collect();
        let scores: Vec<(f64, f64)> = rule.iter().map(rule_scores).collect();
        let ctx = BookContext::learn(m, &scores);
        (rule, ctx)
    }

    /// The model's reading of a surname + a name shaped like a place
    /// (韩孤城: 城 ends towns) with the place shape (`place_suffix`,
    /// `settlement_char`, `generic_suffix`) taken out, when the model said
    /// `none`, its place reading is already weaker than its person reading,
    /// and the text has the name speak, act or command at least once; or
    /// when it said `place` where the rules read a person who speaks
    /// (柯铁岭道): the shape is evidence for a place, not against a
    /// person, and the training books hold few such given names. Taken
    /// when the person reading then wins.
    fn person_behind_place_shape(
        &self,
        w: &str,
        st: &Stat,
        x: &[f32],
        p: [f32; 3],
        rule: Option<&Decided>,
        model: &model::Model,
    ) -> Option<[f32; 3]> {
        let said_none = p[model::NONE] >= p[model::PERSON]
            && p[model::PLACE] < p[model::PERSON]
            && st.say + st.act + st.cmd > 0;
        // Or it said place, where the rules read a person who speaks (柯铁岭
        // 道; acting is no proof: a pass is lost, 苍狼口失守).
        let said_place = p[model::PLACE] > p[model::PERSON]
            && p[model::PLACE] > p[model::NONE]
            && st.say > 0
            && rule.is_some_and(|d| d.kind == EntityType::Person && d.evidence.contains("say"));
        if !(said_none || said_place) {
            return None;
        }
        let chars: Vec<char> = w.chars().collect();
        self.surname(&chars, w)?;
        self.place_suffix(w)?;
        let mut y = x.to_vec();
        for name in ["place_suffix", "settlement_char", "generic_suffix"] {
            if let Some(k) = features::feature_index(name) {
                y[k] = 0.0;
            }
        }
        let q = model.predict(&y);
        (q[model::PERSON] >= MODEL_THRESHOLD && q[model::PERSON] > q[model::NONE]).then_some(q)
    }

    /// A surname + a name that opens clauses often (`opens_clauses_often`)
    /// and that jieba does not know: in a chapter, the cast's own name
    /// (燕不归, 花知秋), whatever the model, trained on whole classical
    /// books, makes of its shape. Title forms are the forms' business
    /// (`forms`).
    fn frequent_clause_opener(&self, w: &str, st: &Stat, p: [f32; 3], m: &Measured) -> bool {
        let chars: Vec<char> = w.chars().collect();
        opens_clauses_often(st, m.total_chars, p)
            && self.surname(&chars, w).is_some()
            && !self.vocab.has_word(w)
            && !self.title_form(w)
    }

    /// A name with a place suffix, no generic or common word, that the
    /// text goes to often enough (`moved_to_often`): a chapter's own place
    /// (an office's compound, a peak, an inn: X府, X峰, X店), which the
    /// model, reading few mentions, calls no name.
    fn frequent_moved_place(&self, w: &str, st: &Stat, p: [f32; 3], m: &Measured) -> bool {
        moved_to_often(st, m.total_chars, p) && self.plain_place_shape(w)
    }

    /// A name with a place suffix that is no generic or common word
    /// (丘陵, 街道): shaped like a place the text names, not a word.
    fn plain_place_shape(&self, w: &str) -> bool {
        self.place_suffix(w).is_some()
            && !self.is_generic(w)
            && !self.is_frequent_word(w, tagged::COMMON_WORD_FREQ)
    }

    /// A faction the rules took by its suffix alone (宗, 门, 派) that is
    /// shaped like a person: a one-character surname and two more
    /// characters, said or seen acting (韩敬宗 is a general, not a sect).
    /// The model, which the rules' factions otherwise bypass, reads it, and
    /// it is a person when the model is sure (`SURNAMED_FACTION_PERSON_MIN`).
    fn surnamed_suffix_faction(&self, w: &str, rule: &Decided, st: &Stat) -> bool {
        let chars: Vec<char> = w.chars().collect();
        chars.len() == 3
            && rule.evidence.len() == 1
            && rule.evidence.contains("sfx")
            && st.say + st.act > 0
            && self.surname(&chars, w).is_some_and(|(len, _)| len == 1)
    }

    /// Whether the learned model judges this candidate: seen often enough,
    /// two to five Han characters, and not routed by the lexicon (generic
    /// words, listed places and factions) or by an army suffix (phase 2).
    fn model_judges(&self, w: &str, st: &Stat) -> bool {
        if st.aux || st.count < MIN_MODEL_COUNT {
            return false;
        }
        let len = w.chars().count();
        (2..=5).contains(&len)
            && w.chars().all(corpus::is_han)
            && !self.is_generic(w)
            && !self.lex.places.contains(w)
            && !self.lex.factions.contains(w)
            && !self.is_army_word(w)
    }

    /// An army word, decided in phase 2, never a person or place: a strong
    /// or long army suffix (金兵, 宋江人马), or a one-character faction's
    /// camp or host (宋营, 宋师; but 郭药师 ends with 师, a weak suffix).
    fn is_army_word(&self, w: &str) -> bool {
        let camp_or_host = || {
            let mut chars = w.chars();
            match (chars.next(), chars.next(), chars.next()) {
                (Some(stem), Some('营' | '师'), None) => {
                    self.is_faction_stem(stem.encode_utf8(&mut [0; 4]))
                }
                _ => false,
            }
        };
        self.army_suffix(w)
            .is_some_and(|(l, weight)| weight >= 3 || l >= 2 || camp_or_host())
    }

    /// The model's decision from its class probabilities. The rules'
    /// evidence codes are kept when they agree on the type.
    /// A person the rules read from a surname and statistics alone, never
    /// speaking, acting, commanding or titled, that is a word of jieba's
    /// corpus (胡琴, 马刀, 石狮: tagged nr, but things), and whose
    /// neighbours the book's context model (features `x`) does not read
    /// as a person's: in a chapter the rules' verdict then does not stand
    /// against the model's doubt (a general the chapter names in reports,
    /// 臣父X, keeps his person context).
    fn cueless_word(&self, rule: &Decided, st: &Stat, x: &[f32]) -> bool {
        let feature = |name: &str| features::feature_index(name).map_or(0.0, |k| x[k]);
        rule.kind == EntityType::Person
            && st.say + st.act + st.cmd + st.title + st.strong == 0
            && self.is_frequent_word(&rule.name, CUELESS_WORD_FREQ)
            && feature("ctx_person_left") + feature("ctx_person_right") <= 0.0
    }

    fn model_verdict(
        &self,
        w: &str,
        st: &Stat,
        p: [f32; 3],
        rule: Option<&Decided>,
        short: bool,
    ) -> Option<Decided> {
        let (kind, prob) = if p[model::PERSON] >= p[model::PLACE] {
            (EntityType::Person, p[model::PERSON])
        } else {
            (EntityType::Place, p[model::PLACE])
        };
        if kind == EntityType::Person && self.function_word_pair(w) {
            return None;
        }
        // 阮小二, 柯小五: a surname + 小 or 大 + a birth order, which the
        // rules took as a person with cues, is a name the training books
        // hardly hold (vernacular fiction calls the lower-born so).
        if rule.is_some_and(|r| {
            r.kind == EntityType::Person && r.score >= BIRTH_ORDER_RULE && self.birth_order_name(w)
        }) {
            return rule.cloned();
        }
        let chapter_reading = short
            && rule.is_none()
            && match kind {
                EntityType::Person => self.speaking_surname(w, st, p),
                _ => self.visited_place_shape(w, st, p),
            };
        if (prob < MODEL_THRESHOLD || prob <= p[model::NONE]) && !chapter_reading {
            // In a chapter-sized text the model sees few occurrences: the
            // rules' verdict stands unless the model is sure it is no name.
            return rule
                .filter(|_| short && p[model::NONE] < SHORT_TEXT_VETO)
                .cloned();
        }
        let mut d = match rule {
            Some(r) if r.kind == kind => r.clone(),
            _ => {
                let mut ev: Vec<&'static str> = Vec::new();
                let chars: Vec<char> = w.chars().collect();
                if kind == EntityType::Person && self.surname(&chars, w).is_some() {
                    ev.push("sur");
                }
                if kind == EntityType::Place && self.place_suffix(w).is_some() {
                    ev.push("sfx");
                }
                let cues: &[(&'static str, u32)] = if kind == EntityType::Person {
                    &[
                        ("say", st.say),
                        ("act", st.act),
                        ("cmd", st.cmd),
                        ("ttl", st.title),
                    ]
                } else {
                    &[("mov", st.mov), ("loc", st.loc)]
                };
                ev.extend(cues.iter().filter(|c| c.1 > 0).map(|c| c.0));
                decided(w, kind, 0.0, &ev, st)
            }
        };
        d.score = prob as f64;
        d.evidence
            .insert(if chapter_reading && prob < MODEL_THRESHOLD {
                "chapter"
            } else {
                "model"
            });
        Some(d)
    }

    /// A name with a place suffix, no generic or common word (丘陵), that
    /// the model reads as a place more than as a person, and that a
    /// chapter-sized text either
    /// - says at least twice, gone to or located in (`mov`, `loc`), read as
    ///   a place at `CHAPTER_PLACE_MIN` or more (柯帅府, 寒鸦峰); or
    /// - keeps coming back to (`repeated_place_name`): in a chapter, the
    ///   model, trained on whole books, reads few mentions and calls such a
    ///   town or pass no name (渡口镇 of a generic 渡口).
    fn visited_place_shape(&self, w: &str, st: &Stat, p: [f32; 3]) -> bool {
        let gone_to = p[model::PLACE] >= CHAPTER_PLACE_MIN
            && st.count >= MIN_MODEL_COUNT
            && st.mov + st.loc > 0;
        p[model::PLACE] > p[model::PERSON]
            && (gone_to || self.repeated_place_name(w, st, p))
            && self.plain_place_shape(w)
    }

    /// A name of three characters or more said `CHAPTER_REPEATED_PLACE`
    /// times after different characters at half of its mentions and not
    /// always before the same one (no piece of a longer name: 听松山|庄),
    /// never speaking, that the model reads as a place at
    /// `CHAPTER_REPEATED_PLACE_MIN` or more. No function character (比谁都),
    /// not a function word or a cue and a place word (什么|都, 进入|山), a
    /// locative phrase (院子里, 门洞里), nor a name with a faction's suffix
    /// too (X门, X帮: a sect as often as a place).
    fn repeated_place_name(&self, w: &str, st: &Stat, p: [f32; 3]) -> bool {
        let chars: Vec<char> = w.chars().collect();
        let last = chars[chars.len() - 1];
        chars.len() >= 3
            && p[model::PLACE] >= CHAPTER_REPEATED_PLACE_MIN
            && st.count >= CHAPTER_REPEATED_PLACE
            && st.say == 0
            && st.left_distinct * 2 >= st.count
            && !st.same_right()
            && !chars.iter().any(|&c| self.is_function_char(c))
            && !self.function_word_and_suffix(w)
            && !self
                .lex
                .cues
                .contains_key(&chars[..2].iter().collect::<String>())
            && !self.chars.locative.contains(&last)
            && !self.ends_like_a_society(&chars)
    }

    /// Whether the last character of a name ends societies and sects too
    /// (`dict/faction_suffixes.txt`: 会, 门, 帮).
    fn ends_like_a_society(&self, chars: &[char]) -> bool {
        chars.last().is_some_and(|c| {
            self.lex
                .faction_suffixes
                .contains_key(c.encode_utf8(&mut [0; 4]) as &str)
        })
    }

    /// A real surname's name (weight 2 or more: 司徒衡, 柯王氏) said at
    /// least twice, speaking or acting (or a full name of three characters
    /// the model hardly reads as a place), that the model reads as a person
    /// more than as a place at `CHAPTER_PERSON_MIN` or more: in a
    /// chapter-sized text, where the model, trained on whole books, sees
    /// few of its mentions and calls it no name, a person. Title forms
    /// (韩团长) are the forms' business (`forms`), which bind them to their
    /// holder.
    fn speaking_surname(&self, w: &str, st: &Stat, p: [f32; 3]) -> bool {
        let chars: Vec<char> = w.chars().collect();
        let surname = self.surname(&chars, w).filter(|&(_, weight)| weight >= 2);
        // 韩铁衣, 石青柱: a surname of one character and a given name of
        // two, the commonest shape of a full name, needs no cue, unless
        // the model also reads a place (柯帅府) or it ends like a society
        // (X会).
        let full_name = surname.is_some_and(|(sl, _)| sl == 1 && chars.len() == 3)
            && p[model::PLACE] < CHAPTER_FULL_NAME_PLACE_MAX
            && !self.ends_like_a_society(&chars);
        p[model::PERSON] >= CHAPTER_PERSON_MIN
            && p[model::PERSON] > p[model::PLACE]
            && st.count >= MIN_MODEL_COUNT
            && (st.say + st.act > 0 || full_name)
            && surname.is_some()
            && !self.title_form(w)
    }

    /// Whether `w` ends with an army suffix and is counted in troops at
    /// least once (五千石鹰骑): troops, never a person.
    fn counted_troops(&self, w: &str, st: &Stat) -> bool {
        st.after_count > 0 && self.army_suffix(w).is_some()
    }

    /// Whether `w` is a surname of weight 2 or more, 小 or 大, and a birth
    /// order (`birth_order` of dict/chars.tsv, a numeral): 阮小二, 柯大五.
    fn birth_order_name(&self, w: &str) -> bool {
        let chars: Vec<char> = w.chars().collect();
        self.surname(&chars, w).is_some_and(|(sl, weight)| {
            weight >= 2
                && chars.len() == sl + 2
                && matches!(chars[sl], '小' | '大')
                && self.chars.birth_order.contains(&chars[sl + 1])
                && !matches!(chars[sl + 1], '大' | '小' | '老')
        })
    }

    /// Why a string was or was not catalogued: its statistics and the
    /// decision. For debugging dictionaries and rules.
    #[doc(hidden)]
    pub fn explain(&self, chapters: &[&str], word: &str) -> String {
        let store = corpus::RunStore::new(chapters);
        let runs = store.runs();
        let m = self.measure(&runs, true, &mut Phases::default());
        let mut out = String::new();
        match m.stat(word) {
            Some(st) => {
                out.push_str(&format!("{word}: {st:?}\n"));
                out.push_str(&format!("  judge: {:?}\n", self.judge(word, st, &m)));
                let chars: Vec<char> = word.chars().collect();
                out.push_str(&format!(
                    "  person: {:?}\n",
                    self.person_score(word, &chars, st)
                ));
                out.push_str(&format!(
                    "  place: {:?}\n",
                    self.place_score(word, &chars, st, &m)
                ));
                out.push_str(&format!(
                    "  army: {:?}\n",
                    self.judge_army(word, st, &m, &HashSet::new())
                ));
                out.push_str(&format!("  cohesion: {:.2}\n", self.cohesion(word, &m)));
                if let (Some(model), Some(i)) =
                    (&self.model, m.words.iter().position(|w| *w == word))
                {
                    let (rule, ctx) = self.rule_verdicts(&m);
                    let x = self.features(i, word, st, &m, &ctx, rule_scores(&rule[i]));
                    let p = model.predict(&x);
                    out.push_str(&format!(
                        "  model: none {:.3} person {:.3} place {:.3} (judges: {})\n",
                        p[0],
                        p[1],
                        p[2],
                        self.model_judges(word, st)
                    ));
                    let ctx_raw: Vec<String> = (0..x.len())
                        .filter(|&j| FEATURES[j].starts_with("ctx_"))
                        .map(|j| format!("{} {:.3}", FEATURES[j], x[j]))
                        .collect();
                    out.push_str(&format!("  context: {}\n", ctx_raw.join(", ")));
                    // The largest pulls towards person against none.
                    let mut pulls: Vec<(f32, &str, f32)> = (0..x.len())
                        .map(|j| {
                            let z = (x[j] - model.mean[j]) / model.scale[j];
                            (
                                z * (model.weights[model::PERSON][j]
                                    - model.weights[model::NONE][j]),
                                FEATURES[j],
                                x[j],
                            )
                        })
                        .collect();
                    pulls.sort_by(|a, b| b.0.abs().total_cmp(&a.0.abs()));
                    for (v, name, raw) in pulls.iter().take(10) {
                        out.push_str(&format!("    {name:<22} {raw:>8.3} person-none {v:+.3}\n"));
                    }
                }
            }
            None => out.push_str(&format!("{word}: not proposed\n")),
        }
        let decided = self.decide(&runs, &m, &mut Phases::default());
        for d in decided
            .iter()
            .filter(|d| d.name.contains(word) || word.contains(d.name.as_str()))
        {
            out.push_str(&format!(
                "  decided: {} {} {:.2} {:?} {:?}\n",
                d.name, d.kind, d.score, d.evidence, d.aliases
            ));
        }
        out
    }
}

/// Where discovery spent its time: each phase with the seconds since the
/// start of its group, in order (`benches/profile.rs` prints them). The
/// library only records them.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Phases(pub Vec<(&'static str, f64)>);

impl Phases {
    fn mark(&mut self, start: Instant, name: &'static str) {
        self.0.push((name, start.elapsed().as_secs_f64()));
    }
}

/// What a string of up to `MAX_CUE` characters is among cues and titles.
#[derive(Debug, Clone, Copy, Default)]
struct Affix {
    cue: Option<[u8; CLASSES]>,
    title: Option<TitlePosition>,
    /// It begins / ends a longer cue or title.
    starts_longer: bool,
    ends_longer: bool,
}

fn affixes(
    cues: &FxMap<String, [u8; CLASSES]>,
    titles: &FxMap<String, TitlePosition>,
) -> FxMap<Key, Affix> {
    let mut out: FxMap<Key, Affix> = FxMap::default();
    let words = cues.keys().chain(titles.keys());
    for w in words {
        let chars: Vec<char> = w.chars().collect();
        let len = chars.len();
        if len == 0 || len > MAX_CUE {
            continue;
        }
        for l in 1..len {
            let begins = corpus::key_of_chars(&chars[..l]).expect("short");
            out.entry(begins).or_default().starts_longer = true;
            let ends = corpus::key_of_chars(&chars[len - l..]).expect("short");
            out.entry(ends).or_default().ends_longer = true;
        }
        let whole = out
            .entry(corpus::key_of_chars(&chars).expect("short"))
            .or_default();
        if let Some(&c) = cues.get(w.as_str()) {
            whole.cue = Some(c);
        }
        if let Some(&t) = titles.get(w.as_str()) {
            whole.title = Some(t);
        }
    }
    out
}

/// A map by key (strings too long for a key are left out: the scans never
/// look them up).
fn by_key<V: Copy>(map: &FxMap<String, V>) -> FxMap<Key, V> {
    map.iter()
        .filter_map(|(w, &v)| corpus::key_of(w).map(|k| (k, v)))
        .collect()
}

/// The key of characters `i..j` of a run, `j - i` at most `KEY_CHARS`
/// (0, which no map holds, otherwise).
#[inline]
fn key(run: &Run, i: usize, j: usize) -> Key {
    run.key(i, j).unwrap_or(0)
}

/// Texts shorter than this (in Han characters) are judged by the rules
/// alone: the model was trained on whole chapters and books.
const MODEL_MIN_CHARS: u64 = 2_000;

/// Texts shorter than this (about a long chapter) keep the rules' verdicts
/// unless the model's `none` reaches `SHORT_TEXT_VETO`.
const SHORT_TEXT: u64 = 20_000;
const SHORT_TEXT_VETO: f32 = 0.9;

/// How often jieba's corpus must use a word for a person the rules read
/// without a cue in a chapter to be refused (`cueless_word`).
const CUELESS_WORD_FREQ: usize = 20;

/// Whether a candidate the model calls no name is said so often and so
/// like a name that the text's own statistics outweigh the model: at
/// least `OPENER_MIN` times and once per `OPENER_PER_CHARS` characters,
/// opening a clause (after punctuation) at half of its mentions, with a
/// different character after it at a third, and read as a person at
/// least `OPENER_PERSON_MIN` and more than as a place.
fn opens_clauses_often(st: &Stat, total_chars: u64, p: [f32; 3]) -> bool {
    st.count >= OPENER_MIN
        && u64::from(st.count) * OPENER_PER_CHARS >= total_chars
        && st.left_punct * 2 >= st.count
        && st.right_distinct * 3 >= st.count
        && p[model::PERSON] >= OPENER_PERSON_MIN
        && p[model::PERSON] > p[model::PLACE]
}

/// A person the army rule also took, with no surname to it (独立营 read
/// as a person by the model, its unit word a weak suffix) or `counted` in
/// troops (五千石鹰骑), is the army: the person goes.
fn drop_persons_taken_as_armies(
    first: Vec<Decided>,
    armies: &[Decided],
    counted: impl Fn(&str) -> bool,
) -> Vec<Decided> {
    let army_names: HashSet<&str> = armies.iter().map(|d| d.name.as_str()).collect();
    first
        .into_iter()
        .filter(|d| {
            d.kind != EntityType::Person
                || !army_names.contains(d.name.as_str())
                || (d.evidence.contains("sur") && !counted(&d.name))
        })
        .collect()
}

/// Whether a candidate the model calls no name is a place the text goes
/// to: said at least `MOVED_PLACE_MIN` times and once per
/// `OPENER_PER_CHARS` characters, after a movement cue once, after
/// different characters at half of its mentions (no piece of a longer
/// name), and read as a place at least `MOVED_PLACE_MIN_P` and more than
/// as a person.
fn moved_to_often(st: &Stat, total_chars: u64, p: [f32; 3]) -> bool {
    st.count >= MOVED_PLACE_MIN
        && u64::from(st.count) * OPENER_PER_CHARS >= total_chars
        && st.left_distinct * 2 >= st.count
        && st.mov >= 1
        && p[model::PLACE] >= MOVED_PLACE_MIN_P
        && p[model::PLACE] > p[model::PERSON]
}

/// Mentions a place the text goes to needs (`moved_to_often`).
const MOVED_PLACE_MIN: u32 = 4;

/// The model's place probability a place the text goes to needs.
const MOVED_PLACE_MIN_P: f32 = 0.25;

/// Mentions a frequent clause opener needs (`opens_clauses_often`).
const OPENER_MIN: u32 = 5;

/// Characters of text per mention at most, for a frequent clause opener
/// or a place the text goes to.
const OPENER_PER_CHARS: u64 = 1_000;

/// The model's person probability a frequent clause opener needs.
const OPENER_PERSON_MIN: f32 = 0.1;
/// The rules' score at which a birth-order name (阮小二) stands against
/// the model.
const BIRTH_ORDER_RULE: f64 = 0.9;

/// The model's `none` from which it refuses a name only the tagger reads.
const TAGGED_VETO: f32 = 0.95;

/// The learned model's smallest probability for a person or a place.
const MODEL_THRESHOLD: f32 = 0.5;

/// The model's person reading at which a real surname's name that speaks
/// or acts is a person in a chapter-sized text (`speaking_surname`).
const CHAPTER_PERSON_MIN: f32 = 0.3;

/// The model's place reading below which a full name of three characters
/// needs no cue to be a person in a chapter-sized text (`speaking_surname`).
const CHAPTER_FULL_NAME_PLACE_MAX: f32 = 0.15;

/// The model's place reading at which a place-shaped name gone to is a
/// place in a chapter-sized text (`visited_place_shape`).
const CHAPTER_PLACE_MIN: f32 = 0.33;

/// Mentions in a chapter-sized text a place name needs when it is not gone
/// to (`repeated_place_name`).
const CHAPTER_REPEATED_PLACE: u32 = 3;

/// The model's place probability a place name said `CHAPTER_REPEATED_PLACE`
/// times in a chapter needs: below it the strings are phrases (忠报国,
/// 叹了口).
const CHAPTER_REPEATED_PLACE_MIN: f32 = 0.03;

/// The model's person reading above which a surnamed name the rules took
/// as a faction by its suffix is a person (`surnamed_suffix_faction`).
const SURNAMED_FACTION_PERSON_MIN: f32 = 0.8;

/// The model shipped in `model/entity-model.tsv`, or None when it was
/// trained on other features than these: a build whose features changed
/// can still run `zhnovel train` (which reads no model) to make the one
/// that matches. The shipped model always matches (tested), so no user
/// build runs without it.
fn builtin_model() -> Option<Model> {
    Model::parse(model::BUILTIN, &FEATURES).ok()
}

/// The tagger shipped in `model/name-tagger.tsv`.
fn builtin_tagger() -> Option<Tagger> {
    let text = super::tagger::BUILTIN;
    (!text.trim().is_empty()).then(|| Tagger::parse(text).expect("the built-in tagger parses"))
}

/// A rule verdict as (person score, place score), 0 for a type not chosen.
fn rule_scores(d: &Option<Decided>) -> (f64, f64) {
    match d {
        Some(d) if d.kind == EntityType::Person => (d.score, 0.0),
        Some(d) if d.kind == EntityType::Place => (0.0, d.score),
        _ => (0.0, 0.0),
    }
}

/// A place that lives only inside army names (北平 in 北平军): said on its
/// own at most a quarter of its mentions; but a listed place the text also
/// names on its own once is one (沧州一带 beside 沧州营).
fn place_only_inside_armies(place: &Decided, armies: &[Decided]) -> bool {
    if place.kind != EntityType::Place {
        return false;
    }
    let inside: u32 = armies
        .iter()
        .filter(|a| a.name.contains(place.name.as_str()))
        .map(|a| a.count)
        .sum();
    let alone = f64::from(place.count) > f64::from(inside) + 0.25 * f64::from(place.count);
    !(alone || (place.evidence.contains("lex") && place.count > inside))
}

fn decided(w: &str, kind: EntityType, score: f64, evidence: &[&'static str], st: &Stat) -> Decided {
    decided_owned(w.to_string(), kind, score, evidence, st.count)
}

/// (name, aliases) of each decided entity, for the rules' tables.
#[cfg(test)]
fn alias_rows(list: &[Decided]) -> BTreeSet<(String, Vec<String>)> {
    list.iter()
        .map(|d| (d.name.clone(), d.aliases.iter().cloned().collect()))
        .collect()
}

/// A table's expected (name, aliases) rows.
#[cfg(test)]
fn expected_rows(want: &[(&str, &[&str])]) -> BTreeSet<(String, Vec<String>)> {
    want.iter()
        .map(|(n, a)| (n.to_string(), a.iter().map(|s| s.to_string()).collect()))
        .collect()
}

fn decided_owned(
    name: String,
    kind: EntityType,
    score: f64,
    evidence: &[&'static str],
    count: u32,
) -> Decided {
    Decided {
        name,
        kind,
        score,
        evidence: evidence.iter().copied().collect(),
        aliases: BTreeSet::new(),
        count,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::Lexicon;
    use std::sync::OnceLock;

    fn recognizer() -> &'static Recognizer {
        static R: OnceLock<Recognizer> = OnceLock::new();
        R.get_or_init(|| Recognizer::new(Lexicon::builtin()))
    }

    /// The catalogued (type, name) pairs of one text.
    fn found(text: &str) -> BTreeSet<(EntityType, String)> {
        recognizer()
            .discover(&[text])
            .entities()
            .iter()
            .map(|e| (e.kind, e.name.clone()))
            .collect()
    }

    use EntityType::{Army, Faction, Person, Place};

    #[test]
    fn a_birth_order_name_stands_against_the_model() {
        let r = recognizer();
        for (w, want) in [
            ("韩小五", true),
            ("苏大三", true),
            ("欧阳小二", true),
            // A given name, a rare surname (法: weight 1), an order alone.
            ("韩千山", false),
            ("法小二", false),
            ("韩小", false),
            ("韩小小", false),
        ] {
            assert_eq!(r.birth_order_name(w), want, "{w}");
        }
        let st = Stat {
            count: 40,
            ..Stat::default()
        };
        let refused = [0.7, 0.29, 0.01];
        let rule = |w: &str, score: f64| {
            let mut d = decided(w, Person, score, &["say", "sur"], &st);
            d.score = score;
            d
        };
        let verdict = |w: &str, score: f64| {
            r.model_verdict(w, &st, refused, Some(&rule(w, score)), false)
                .map(|d| d.name)
        };
        assert_eq!(verdict("韩小五", 0.93), Some("韩小五".to_string()));
        // The model's word stands on other names and on a weak rule.
        assert_eq!(verdict("韩千山", 0.93), None);
        assert_eq!(verdict("韩小五", 0.6), None);
    }

    #[test]
    fn pair_tallies_added_in_any_order_equal_one_tally() {
        let pairs: Vec<u64> = (0..1000u64).map(|i| (i * 7919) % 97).collect();
        let one = tally(pairs.clone());
        let parts: Vec<PairTally> = pairs
            .chunks(300)
            .map(|c| {
                let mut t = PairTally::default();
                c.iter().for_each(|&p| t.push(p));
                t
            })
            .collect();
        let mut added = PairTally::default();
        for part in parts.into_iter().rev() {
            added.add(part);
        }
        let merged = added.finish();
        assert_eq!(merged, one);
        assert_eq!(merged.capacity(), merged.len());
        assert_eq!(merged_len(&one, &tally(vec![0, 96, 200])), one.len() + 1);
    }

    #[test]
    fn a_function_word_pair_is_no_name() {
        let r = recognizer();
        // (word, an adverb or conjunction rather than a name)
        let cases = [
            ("俱若", true),  // no surname + a function character
            ("莫之", true),  // 莫: a surname, but a weak one
            ("苏才", false), // a strong surname + a given name 才
            ("石三", false),
            ("王羲之", false), // three characters
            ("韩铁衣", false),
        ];
        for (w, want) in cases {
            assert_eq!(r.function_word_pair(w), want, "{w}");
        }
    }

    /// 楚师: a one-character faction's host, where the book names its
    /// troops (楚兵, 楚军) as often, is its army, never a person (楚 is
    /// also a surname); 明师 (an enlightened teacher) in a book that names
    /// no 明兵 is no army.
    #[test]
    fn a_factions_host_is_its_army_where_the_book_names_its_troops() {
        let text = "楚兵大至。楚军围城。楚师连年征战，军士怀怨。韩铁衣引兵拒楚师。\
                    楚兵败走。楚师退去。楚军又至。楚兵复来。楚师复至，韩铁衣大怒。\
                    苏青禾拜了明师。明师笑道：“好。”明师又道：“去罢。”";
        let catalog = recognizer().discover(&[text]);
        let names = |e: &crate::entity::Entity| {
            std::iter::once(e.name.clone())
                .chain(e.aliases.iter().cloned())
                .collect::<Vec<String>>()
        };
        let army_of = |w: &str| {
            catalog
                .entities()
                .iter()
                .any(|e| e.kind == Army && names(e).iter().any(|n| n == w))
        };
        assert!(army_of("楚师"), "{:?}", catalog.entities());
        assert!(!army_of("明师"), "{:?}", catalog.entities());
        assert!(
            !catalog
                .entities()
                .iter()
                .any(|e| e.kind == Person && names(e).iter().any(|n| n == "楚师")),
            "{:?}",
            catalog.entities()
        );
    }

    /// 野泽大队: a modern unit named by its commander, whom the chapter
    /// also names on his own, is an army; 游击大队 (a common word before
    /// the unit) is not, nor is a commander's unit said once.
    #[test]
    fn a_unit_named_by_its_commander_is_an_army() {
        let armies = |text: &str| names_of(text, Army);
        let text = "野泽大队已经出了镇子。野泽放下望远镜，冷笑一声。\
                    野泽大队的火把排成了一条线。野泽站在河边。\
                    野泽挥了挥手。野泽大队今夜要过河。\
                    游击大队来了。游击大队走了。游击大队又来了。";
        assert_eq!(armies(text), ["野泽大队"]);
        let once = "野泽大队出了镇子。野泽放下望远镜。野泽站在河边。野泽挥了挥手。";
        assert!(armies(once).is_empty(), "{:?}", armies(once));
    }

    /// 三千豹骑: a one-character stem + suffix after counts of troops is
    /// an army; a verb + 兵 before one (拨兵五千) and a classifier (三千名
    /// 军士) are not.
    #[test]
    fn a_one_character_stem_counted_in_troops_is_an_army() {
        let text = "韩千山率三千豹骑出城。豹骑来去如风。五千豹骑列阵。\
                    柯北辰拨兵五千守城。又拨兵三千。三千名军士列阵。五千名军士出城。";
        assert_eq!(names_of(text, Army), ["豹骑"]);
    }

    /// 五千石鹰骑: a surname + two characters that end with an army
    /// suffix, acting like a man, is troops once it is counted in them.
    #[test]
    fn a_name_counted_in_troops_is_no_person() {
        let text = "韩千山命石鹰骑埋伏山后。石鹰骑杀出，石鹰骑冲散了敌阵。\
                    五千石鹰骑回营。韩千山大喜。";
        assert_eq!(names_of(text, Army), ["石鹰骑"]);
        assert!(!names_of(text, Person).contains(&"石鹰骑".to_string()));
        // Never counted, the same string is left to the person rules.
        let r = recognizer();
        let st = |after_count: u32| Stat {
            count: 4,
            after_count,
            ..Stat::default()
        };
        assert!(r.counted_troops("石鹰骑", &st(1)));
        assert!(!r.counted_troops("石鹰骑", &st(0)));
        assert!(!r.counted_troops("石敢当", &st(1)));
    }

    #[test]
    fn places_only_inside_armies_by_table() {
        let entity = |w: &str, kind: EntityType, ev: &[&'static str], count: u32| Decided {
            name: w.to_string(),
            kind,
            score: 0.8,
            evidence: ev.iter().copied().collect(),
            aliases: BTreeSet::new(),
            count,
        };
        let armies = [entity("柯州营", Army, &["army"], 3)];
        // (place, evidence, mentions in all, only inside armies)
        let table: [(&str, &[&'static str], u32, bool); 5] = [
            ("柯州", &["lex"], 4, false),
            ("柯州", &["lex"], 3, true),
            ("柯州", &["sfx", "mov"], 4, true),
            ("柯州", &["sfx", "mov"], 5, false),
            ("韩州", &["sfx", "mov"], 1, false),
        ];
        for (w, ev, count, want) in table {
            assert_eq!(
                place_only_inside_armies(&entity(w, Place, ev, count), &armies),
                want,
                "{w} {ev:?} {count}"
            );
        }
    }

    #[test]
    fn chapter_persons_and_places_by_table() {
        let r = recognizer();
        // (name, mentions, [say, act, mov, loc], [none, person, place],
        // a person by `speaking_surname`, a place by `visited_place_shape`)
        type Row<'a> = (&'a str, u32, [u32; 4], [f32; 3], bool, bool);
        let table: [Row; 21] = [
            ("韩道远", 3, [1, 0, 0, 0], [0.6, 0.35, 0.05], true, false),
            ("韩道远", 2, [0, 1, 0, 0], [0.6, 0.35, 0.05], true, false),
            ("韩道远", 1, [1, 0, 0, 0], [0.6, 0.35, 0.05], false, false),
            // A full name of three characters needs no cue; two
            // characters, a society's suffix (X会), do.
            ("韩道远", 3, [0, 0, 0, 0], [0.6, 0.35, 0.05], true, false),
            ("韩远", 3, [0, 0, 0, 0], [0.6, 0.35, 0.05], false, false),
            ("韩远", 3, [1, 0, 0, 0], [0.6, 0.35, 0.05], true, false),
            ("韩道会", 3, [0, 0, 0, 0], [0.6, 0.35, 0.05], false, false),
            // Read as a place too: a cue is needed.
            ("韩道远", 3, [0, 0, 0, 0], [0.5, 0.3, 0.2], false, false),
            ("韩道远", 3, [1, 0, 0, 0], [0.5, 0.3, 0.2], true, false),
            ("韩道远", 3, [1, 0, 0, 0], [0.75, 0.2, 0.05], false, false),
            ("韩道远", 3, [1, 0, 0, 0], [0.2, 0.35, 0.45], false, false),
            // A title form is the forms' business.
            ("韩团长", 3, [1, 0, 0, 0], [0.6, 0.35, 0.05], false, false),
            // No surname.
            ("道远", 3, [1, 0, 0, 0], [0.6, 0.35, 0.05], false, false),
            ("柯帅府", 3, [0, 0, 1, 0], [0.6, 0.05, 0.35], false, true),
            ("柯帅府", 2, [0, 0, 0, 1], [0.6, 0.05, 0.35], false, true),
            ("柯帅府", 1, [0, 0, 1, 0], [0.6, 0.05, 0.35], false, false),
            ("柯帅府", 3, [0, 0, 0, 0], [0.6, 0.05, 0.35], false, false),
            ("柯帅府", 3, [0, 0, 1, 0], [0.7, 0.05, 0.25], false, false),
            ("柯帅府", 3, [0, 0, 1, 0], [0.2, 0.4, 0.35], false, false),
            // No place suffix; a common word (hills).
            ("柯帅", 3, [0, 0, 1, 0], [0.6, 0.05, 0.35], false, false),
            ("丘陵", 3, [0, 0, 1, 0], [0.6, 0.05, 0.35], false, false),
        ];
        for (w, count, [say, act, mov, loc], p, person, place) in table {
            let st = Stat {
                count,
                say,
                act,
                mov,
                loc,
                ..Stat::default()
            };
            assert_eq!(r.speaking_surname(w, &st, p), person, "{w} {st:?} {p:?}");
            assert_eq!(r.visited_place_shape(w, &st, p), place, "{w} {st:?} {p:?}");
        }
    }

    /// A chapter's cue-less person that is a common word of jieba's (马鞭,
    /// tagged nr) is doubted unless the book's context model reads its
    /// neighbours as a person's; a cue, a name no dictionary holds, or a
    /// place verdict keeps it.
    #[test]
    fn cueless_words_by_table() {
        let r = recognizer();
        let k = |name: &str| features::feature_index(name).unwrap();
        // (name, type, act, person context left and right, doubted)
        let table: [(&str, EntityType, u32, [f32; 2], bool); 6] = [
            ("马鞭", Person, 0, [-0.5, -0.3], true),
            ("马鞭", Person, 1, [-0.5, -0.3], false),
            ("马鞭", Person, 0, [0.5, 0.7], false),
            ("马鞭", Person, 0, [0.5, -0.7], true),
            ("韩千山", Person, 0, [-0.5, -0.3], false),
            ("马鞭", Place, 0, [-0.5, -0.3], false),
        ];
        for (w, kind, act, [left, right], doubted) in table {
            let st = Stat {
                count: 4,
                act,
                ..Stat::default()
            };
            let mut x = vec![0.0; FEATURES.len()];
            x[k("ctx_person_left")] = left;
            x[k("ctx_person_right")] = right;
            let rule = decided(w, kind, 0.6, &["stat", "sur"], &st);
            assert_eq!(
                r.cueless_word(&rule, &st, &x),
                doubted,
                "{w} {kind:?} {act} {left} {right}"
            );
        }
    }

    #[test]
    fn places_a_chapter_keeps_coming_back_to_by_table() {
        let r = recognizer();
        // (name, mentions, distinct characters before it and after it,
        // speaks, [none, person, place], a place by `visited_place_shape`
        // without `mov`)
        type Row<'a> = (&'a str, u32, [u32; 2], u32, [f32; 3], bool);
        let table: [Row; 15] = [
            ("韩岭镇", 3, [2, 2], 0, [0.9, 0.02, 0.08], true),
            ("韩岭镇", 9, [8, 5], 0, [0.9, 0.02, 0.08], true),
            // Said twice; after the same character (a piece of 上韩岭镇…);
            // before the same one (a piece of 韩岭镇口…).
            ("韩岭镇", 2, [2, 2], 0, [0.9, 0.02, 0.08], false),
            ("韩岭镇", 3, [1, 2], 0, [0.9, 0.02, 0.08], false),
            ("韩岭镇", 3, [2, 1], 0, [0.9, 0.02, 0.08], false),
            // Speaks; read as a person more; hardly read as a place.
            ("韩岭镇", 3, [2, 2], 1, [0.9, 0.02, 0.08], false),
            ("韩岭镇", 3, [2, 2], 0, [0.8, 0.15, 0.05], false),
            ("韩岭镇", 3, [2, 2], 0, [0.98, 0.0, 0.02], false),
            // Two characters; a cue or a function word and a place word; a
            // locative phrase; a sect's suffix.
            ("岭镇", 3, [2, 2], 0, [0.9, 0.02, 0.08], false),
            ("前往山", 3, [2, 2], 0, [0.9, 0.02, 0.08], false),
            ("什么都", 3, [2, 2], 0, [0.9, 0.02, 0.08], false),
            ("比谁都", 3, [2, 2], 0, [0.9, 0.02, 0.08], false),
            ("院子里", 3, [2, 2], 0, [0.9, 0.02, 0.08], false),
            ("韩岭门", 3, [2, 2], 0, [0.9, 0.02, 0.08], false),
            // A common word.
            ("丘陵", 3, [2, 2], 0, [0.9, 0.02, 0.08], false),
        ];
        for (w, count, [left_distinct, right_distinct], say, p, place) in table {
            let st = Stat {
                count,
                left_distinct,
                right_distinct,
                say,
                ..Stat::default()
            };
            assert_eq!(r.visited_place_shape(w, &st, p), place, "{w} {st:?} {p:?}");
        }
    }

    #[test]
    fn surnamed_suffix_factions_by_table() {
        let r = recognizer();
        let st = |say: u32, act: u32| Stat {
            count: 5,
            say,
            act,
            ..Stat::default()
        };
        let sfx = |w: &str, ev: &[&'static str]| Decided {
            name: w.to_string(),
            kind: Faction,
            score: 0.6,
            evidence: ev.iter().copied().collect(),
            aliases: BTreeSet::new(),
            count: 5,
        };
        // (name, evidence, say, act, asked of the model)
        let table: [(&str, &[&'static str], u32, u32, bool); 6] = [
            ("韩敬宗", &["sfx"], 1, 0, true),
            ("韩敬宗", &["sfx"], 0, 2, true),
            ("韩敬宗", &["sfx"], 0, 0, false),
            ("韩敬宗", &["sfx", "mem"], 1, 1, false),
            ("青崖宗", &["sfx"], 1, 1, false),
            ("韩北辰宗", &["sfx"], 1, 1, false),
        ];
        for (w, ev, say, act, want) in table {
            assert_eq!(
                r.surnamed_suffix_faction(w, &sfx(w, ev), &st(say, act)),
                want,
                "{w} {ev:?} {say} {act}"
            );
        }
    }

    /// 会 ends a society's name (青澜会) though it is also a function
    /// character ("can"); after a person said on his own far more often
    /// (韩冲会), it is the verb.
    #[test]
    fn a_society_named_with_hui_is_a_faction_and_a_person_who_can_is_not() {
        let text = "青澜会的人来了。码头归青澜会管。青澜会的汉子推着车。\
                    韩冲会骑马。韩冲笑道：“好。”韩冲会射箭。韩冲走了。\
                    韩冲会喝酒。韩冲说道：“去罢。”韩冲大怒。韩冲坐下。";
        let catalog = recognizer().discover(&[text]);
        let faction = |w: &str| {
            catalog
                .entities()
                .iter()
                .any(|e| e.kind == Faction && e.name == w)
        };
        assert!(faction("青澜会"), "{:?}", catalog.entities());
        assert!(!faction("韩冲会"), "{:?}", catalog.entities());
    }

    /// 商会 (chamber of commerce) ends a society's name as one suffix;
    /// read as 会 alone, its stem would end in 商 and 商会 be an ordinary
    /// word across the seam.
    #[test]
    fn a_chamber_of_commerce_is_a_faction() {
        let text = "瑞丰商会的人来了。码头归瑞丰商会管。瑞丰商会的伙计推着车。韩冲走了。\
                    长风镖局的镖车到了。韩冲进了长风镖局。长风镖局里人都笑了。众人说起长风镖局，都很敬重。";
        assert_eq!(judged_in(text, "瑞丰商会"), Some(EntityType::Faction));
        // So does an escort agency: 镖局 is one suffix, not 局 after 长风镖.
        assert_eq!(judged_in(text, "长风镖局"), Some(EntityType::Faction));
    }

    /// Lanes, concessions and wharves end a modern town's places (胡同,
    /// 租界, 码头 in dict/place_suffixes.txt).
    #[test]
    fn lanes_and_wharves_are_places() {
        let text = "韩冲到了青槐胡同。青槐胡同里人多。柯北辰走过青槐胡同，又回青槐胡同。\
                    苏青禾去了鹭湾码头。鹭湾码头停着船。众人赶到鹭湾码头。";
        assert_eq!(judged_in(text, "青槐胡同"), Some(EntityType::Place));
        assert_eq!(judged_in(text, "鹭湾码头"), Some(EntityType::Place));
    }

    /// A strong suffix (宗) names a school however common its stem (金光,
    /// a generic word, a surname + a character); 派, also the verb
    /// "send", does not (元帅派人).
    #[test]
    fn a_strong_suffix_names_a_school_of_any_stem() {
        let text = "金光宗的长老来了。韩冲拜入金光宗。金光宗的山门很高。众人都说金光宗好。\
                    元帅派人去了。元帅派兵出城。韩冲说元帅派他去。元帅派了三人。";
        assert_eq!(judged_in(text, "金光宗"), Some(EntityType::Faction));
        assert_ne!(judged_in(text, "元帅派"), Some(EntityType::Faction));
    }

    /// The names of the entities of one type that discovery finds in
    /// `text`, in the catalog's order.
    fn names_of(text: &str, kind: EntityType) -> Vec<String> {
        recognizer()
            .discover(&[text])
            .entities()
            .iter()
            .filter(|e| e.kind == kind)
            .map(|e| e.name.clone())
            .collect()
    }

    /// The type the rules give candidate `w` of `text`, measured alone.
    fn judged_in(text: &str, w: &str) -> Option<EntityType> {
        let r = recognizer();
        let store = corpus::RunStore::new(&[text]);
        let runs = store.runs();
        let m = r.measure(&runs, false, &mut Phases::default());
        let st = m.stat(w).unwrap_or_else(|| panic!("{w} is a candidate"));
        r.judge(w, st, &m).map(|d| d.kind)
    }

    /// 上|泰山, 回|黑石山: a locative (before a listed place) or a movement
    /// verb (before a place with a suffix) glued onto a place the book
    /// names alone at least twice as often is no place of its own; the
    /// place alone is.
    #[test]
    fn a_locative_or_movement_verb_before_a_place_is_no_part_of_it() {
        let text =
            "韩铁衣上泰山去了。泰山上有座庙。苏青禾也到泰山。众人都在泰山。柯北辰便上泰山来。\
                    石敢当要上泰山，苏青禾也上泰山。泰山脚下人多。泰山高。\
                    柯北辰回黑石山。黑石山下有村。他到了黑石山。黑石山很高。众人回黑石山。";
        let judged = |w: &str| judged_in(text, w);
        assert_eq!(judged("上泰山"), None);
        assert_eq!(judged("回黑石山"), None);
        assert_eq!(judged("泰山"), Some(EntityType::Place));
        assert_eq!(judged("黑石山"), Some(EntityType::Place));
    }

    /// One character and a place suffix said once (宝庄, 高庄: often a
    /// piece of a phrase) is too weak; said twice, or three characters, is
    /// a place.
    #[test]
    fn a_one_character_stem_place_said_once_is_too_weak() {
        let text = "柯北辰到了韩庄。苏青禾回到石岭村。韩铁衣去了柯庄。苏青禾也去柯庄。";
        let judged = |w: &str| judged_in(text, w);
        assert_eq!(judged("韩庄"), None);
        assert_eq!(judged("柯庄"), Some(EntityType::Place));
        assert_eq!(judged("石岭村"), Some(EntityType::Place));
    }

    /// t2s leaves 著 as it is (著名), so a Traditional text's particle 著
    /// (指著, 看著) reaches the recognizer: it bounds names as 着 does (in
    /// the full 水滸傳, 指著 was a person said 57 times).
    #[test]
    fn the_particle_zhe_in_either_form_bounds_names() {
        let r = recognizer();
        assert!(r.is_function_char('着'));
        assert!(r.is_function_char('著'));
    }

    #[test]
    fn phrases_that_start_with_a_pronoun_group_word_or_demonstrative_are_generic() {
        let r = recognizer();
        // A demonstrative + an ordinary word: a description (那妇人 was a
        // person said 287 times in the full 水滸傳), though 那 is a surname;
        // a context cue of dict/cues.txt (闻言, which jieba tags nr).
        for w in [
            "他二人",
            "我军",
            "她们几个",
            "众弟兄",
            "众好汉",
            "那妇人",
            "这汉子",
            "闻言",
            "笑道",
        ] {
            assert!(r.is_generic(w), "{w}");
        }
        for w in ["韩铁衣", "尔朱荣", "吾丘寿", "那千山"] {
            assert!(!r.is_generic(w), "{w}");
        }
    }

    #[test]
    fn a_tagged_name_that_starts_with_a_classical_pronoun_is_a_phrase() {
        let r = recognizer();
        for (w, want) in [
            ("汝居", true),
            ("伊弟", true),
            ("吾儿", true),
            // "Our" or "your" before a sect or its head: 本宗, 敝派, 贵帮主.
            ("本宗", true),
            ("敝派", true),
            ("贵帮主", true),
            // Compound surnames that start with one: 尔朱, 伊藤.
            ("尔朱荣", false),
            ("伊藤博", false),
            ("韩千山", false),
        ] {
            assert_eq!(r.pronoun_phrase(w), want, "{w}");
        }
    }

    /// (rule, text, names it must find with their type, strings it must not find).
    type Case = (
        &'static str,
        &'static str,
        &'static [(EntityType, &'static str)],
        &'static [&'static str],
    );

    const CASES: &[Case] = &[
        (
            "surname + speech cues",
            "柯北辰道：“来了。”众人都不作声。柯北辰笑道：“怕甚么！”柯北辰又问道：“城中还有多少粮草？”",
            &[(Person, "柯北辰")],
            &["众人", "柯北"],
        ),
        (
            "无, a function character, is common in given names (长孙无忌): class given_ok",
            "厉无涯冷笑道：“来了。”厉无涯大怒道：“走！”厉无涯率兵出城。厉无涯又问道：“何人？”",
            &[(Person, "厉无涯")],
            &["厉无", "无涯"],
        ),
        (
            "宗 ends a sect's name; a verb before a person named X宗 makes no sect",
            "霜月宗弟子来了。霜月宗大怒。只见霜月宗人马杀到。霜月宗退去。\
             柯宗道：“走。”柯宗笑道：“好。”柯宗又道：“罢。”柯宗大怒。\
             乃力奏柯宗，申奏柯宗。入奏柯宗曰：“来。”\
             又奏柯宗，速奏柯宗。再奏柯宗曰：“去。”柯宗坐下。柯宗起身。柯宗出门。柯宗回来。",
            &[(Faction, "霜月宗"), (Person, "柯宗")],
            &["奏柯宗"],
        ),
        (
            "a one-character state glued after the same verbs (调齐人马) makes no army; one after varied words does",
            "韩千山调齐人马。柯北辰点齐人马。苏青禾调齐人马，又点齐人马。\
             秦兵大至。只见秦兵杀来，又被秦兵围住。",
            &[(Army, "秦兵")],
            &["齐人马"],
        ),
        (
            "a company: a stem + a two-character organisation suffix (集团); an ordinary word + 公司 is none",
            "北辰集团的人来了。他在北辰集团做事。北辰集团又派人来。听说北辰集团要收购老宅。\
             一家贸易公司开张了。那家贸易公司倒了。贸易公司的人走了。",
            &[(Faction, "北辰集团")],
            &["贸易公司", "集团"],
        ),
        (
            "a school named after a mountain jieba knows well (天山派) is a sect; 丐帮 is listed; 武林 (jieba: nr) is no person",
            "韩千山是天山派的弟子。天山派掌门柯北辰笑道：“好。”众人都说天山派剑法第一。\
             丐帮弟子来了。苏青禾道：“丐帮也来凑热闹？”丐帮长老大怒。\
             韩千山道：“武林中人，岂能如此？”武林大会那日，苏青禾做了武林盟主。\
             柯北辰名动武林。武林之中，韩千山最是心狠。",
            &[(Faction, "天山派"), (Faction, "丐帮")],
            &["武林"],
        ),
        (
            "the lady of a house (韩太太) said again and again with cues is a person; a daughter's title (韩小姐) is not",
            "韩太太道：“来了。”韩太太笑道：“坐。”韩太太又问道：“吃了么？”韩太太叹道：“罢了。”\
             丫头扶着韩太太出来。韩小姐道：“母亲。”韩小姐笑道：“好。”韩小姐又道：“去罢。”\
             韩小姐叹道：“罢了。”丫头扶着韩小姐进去。",
            &[(Person, "韩太太")],
            &["韩小姐"],
        ),
        (
            "modern states and parties of dict/factions.txt are factions (modern fiction)",
            "韩千山说：“国民党的队伍又撤了。”美国的飞机飞过来，苏联出兵东北。\
             苏青禾说：“国民党靠不住，美国人也靠不住。”苏联红军进城了。\
             国民党军队开进城里，美国顾问跟在后面。柯北辰问：“苏联会帮谁？”",
            &[(Faction, "国民党"), (Faction, "美国"), (Faction, "苏联")],
            &[],
        ),
        (
            "a direction + a word for foreigners (北胡) is a faction, though it speaks and acts",
            "北胡犯边，朝廷震动。北胡大怒，遣使来。北胡又来索战。\
             韩铁衣曰：“北胡不足惧。”韩铁衣道：“走。”韩铁衣笑道：“好。”",
            &[(Faction, "北胡"), (Person, "韩铁衣")],
            &[],
        ),
        (
            "a landform + a city suffix (江城) is a city where people go there; 山寨 and 海岛 stay words",
            "他来到江城。苏青禾在江城住了三年。他们离开了江城。江城下着雨。\
             众人回到山寨。山寨里很热闹。他到了山寨。船到了海岛。他们上了海岛。",
            &[(Place, "江城")],
            &["山寨", "海岛"],
        ),
        (
            "an army of dict/armies.txt, not where its mention cuts a word (八路|军马)",
            "柯北辰点起八路军马，杀奔北燕城下。",
            &[],
            &["八路军"],
        ),
        (
            "compound surname + action cues, boundary before the cue",
            "慕容远山率兵三千出城。次日慕容远山领着败兵回营，慕容远山便下令紧闭城门。",
            &[(Person, "慕容远山")],
            &["慕容远", "慕容远山率", "慕容远山领"],
        ),
        (
            "compound surname + one-character given name",
            "耶律成领着千余人马赶来。耶律成便也不肯前去，只令耶律成所部守住谷口。",
            &[(Person, "耶律成")],
            &["耶律成领"],
        ),
        (
            "title context",
            "都统郝青山引兵出城迎敌。郝青山将军大怒，拍马舞刀直取敌将。",
            &[(Person, "郝青山")],
            &["都统", "将军"],
        ),
        (
            "speech verb is not part of the name",
            "孔明曰：“此计可行。”孔明笑曰：“将军勿忧。”孔明遂令众将各自准备。",
            &[(Person, "孔明")],
            &["孔明曰", "孔明笑"],
        ),
        (
            "place suffix and movement cues",
            "大军连夜直奔青石关。守将闭门不出，次日便攻青石关，三日后青石关城下尸积如山。",
            &[(Place, "青石关")],
            &["石关", "奔青石关"],
        ),
        (
            "a longer place is not cut to a known shorter one",
            "残兵一路逃往距离锦州最近的一座城池安德州。",
            &[(Place, "安德州"), (Place, "锦州")],
            &["德州", "城池", "池安德州"],
        ),
        (
            "a listed faction cut from a title is none (大元|帅)",
            "大元帅升帐。大元帅传令，大元帅点兵出城。",
            &[],
            &["大元"],
        ),
        (
            "nor one always before the same character: a piece of a longer word",
            "黄巾力士上前。黄巾力士拿住。黄巾力士退下。黄巾力士去了。黄巾力士来了。\
             黄巾力士站定。黄巾力士回报。黄巾力士听令。黄巾力士散去。黄巾力士又到。",
            &[],
            &["黄巾"],
        ),
        (
            "a family's village is a place though 家庄 is a word",
            "众好汉连夜赶到钟家庄。次日离了钟家庄，又回钟家庄歇马。",
            &[(Place, "钟家庄")],
            &["家庄"],
        ),
        (
            "a surname first, but movement cues three to one: a place",
            "众人往韩归望去。到了韩归望，天色已晚。次日离了韩归望。\
             又回到韩归望。三日后再往韩归望。韩归望来了许多人。",
            &[(Place, "韩归望")],
            &[],
        ),
        (
            "places joined by a conjunction share their type",
            "众人商议，先往沧州，再到润州或者迁州停留。",
            &[(Place, "迁州"), (Place, "润州")],
            &["者迁州"],
        ),
        (
            "armies named by a faction, with the faction",
            "契丹兵四散奔逃，契丹骑兵死伤过半。秦军在后掩杀，秦军将士个个争先。",
            &[(Army, "契丹兵"), (Army, "秦军"), (Faction, "契丹"), (Faction, "秦")],
            &["骑兵", "将士"],
        ),
        (
            "armies named by a place, a direction, a family or their own name",
            "榆关守军不过三千。南军缺马，柯家军却有精骑。神武军骑兵三万，神武军前锋已到，神武军势大。",
            &[(Army, "榆关守军"), (Army, "南军"), (Army, "柯家军"), (Army, "神武军")],
            &["神武军骑兵", "精骑"],
        ),
        (
            "a unit whose name is a dictionary word, said five times, its stem seldom alone",
            "白袍军守在城外。白袍军不动。白袍军统领出来。次日白袍军换防，白袍军又回营中。",
            &[(Army, "白袍军")],
            &[],
        ),
        (
            "a verb glued onto a listed place the text also names alone (配郑州)",
            "那厮刺配郑州牢城。次日起身往郑州去，到了郑州，又配郑州。",
            &[(Place, "郑州")],
            &["配郑州"],
        ),
        (
            "a side's camp and its troops are two armies (契丹营, 契丹兵)",
            "契丹兵四散奔逃，契丹兵死伤过半。契丹营中一片大乱，契丹营诸将不知所措，次日契丹营拔寨而走。",
            &[(Army, "契丹兵"), (Army, "契丹营")],
            &[],
        ),
        (
            "a one-character faction's camp, said again and again, is its army",
            "秦营中一片大乱。秦营诸将不知所措。次日秦营拔寨而走。",
            &[(Army, "秦营")],
            &[],
        ),
        (
            "a founder's name the book uses for his realm is a faction (X天下, X社稷, X营)",
            "雷昭道：“起兵！”雷昭笑道：“好。”雷昭问道：“何人？”众人都说雷昭天下已定，\
             雷昭天下太平，雷昭天下归心，雷昭天下无事。只恐雷昭社稷不保，雷昭社稷危矣，\
             雷昭之社稷在此。雷昭营中大乱，雷昭营里无人，雷昭江山难保，雷昭基业已空。",
            &[(Faction, "雷昭")],
            &[],
        ),
        (
            "a person whose name is seldom before a realm word stays a person",
            "韩铁衣道：“起兵！”韩铁衣笑道：“好。”韩铁衣问道：“何人？”韩铁衣领兵出城。\
             韩铁衣率兵三千。韩铁衣大喝一声。韩铁衣拍马便走。韩铁衣回头看时，韩铁衣营中已乱。\
             韩铁衣又道：“走！”韩铁衣道：“休走！”韩铁衣道：“罢了。”",
            &[(Person, "韩铁衣")],
            &[],
        ),
        (
            "a verb before a one-character state makes it a faction (伐燕, 入燕)",
            "次年大军伐燕，燕王出降。后来又入燕，燕地平定。",
            &[(Faction, "燕")],
            &[],
        ),
        (
            "an idiom around the verb and the character is no polity (弃暗投明)",
            "众将弃暗投明，纷纷来归。他也弃暗投明。如今弃暗投明者甚多。",
            &[],
            &["明"],
        ),
        (
            "a sect named by a stem and a faction suffix",
            "青云派弟子下山。青云派掌门大怒，青云派众人随后赶到。",
            &[(Faction, "青云派")],
            &["云派"],
        ),
        (
            "an empire named with 帝国 is a faction",
            "大霜帝国的铁骑南下。三年后，大霜帝国灭了南梁。众人都说大霜帝国气数未尽。",
            &[(Faction, "大霜帝国")],
            &["霜帝国"],
        ),
        (
            "an ordinary word or a person's name before 帝国 makes no empire",
            "封建帝国的末年，封建帝国终于崩溃。韩烈道：“走！”韩烈笑道：“好。”\
             韩烈又道：“罢了。”韩烈帝国二人同去。韩烈帝国又来了。",
            &[],
            &["封建帝国", "韩烈帝国"],
        ),
        (
            "a sect whose head is named by its last character is a faction, however its suffix reads (门 a gate, 帮 after an ordinary word)",
            "霜月门门主到了。霜月门的弟子随后赶来。众人都怕霜月门。\
             石匠帮帮主大怒，石匠帮的人四散。石匠帮又来了。",
            &[(Faction, "霜月门"), (Faction, "石匠帮")],
            &["月门", "匠帮"],
        ),
        (
            "a sect's head named with 的 between (X门的门主) makes it a faction as well, but a county's magistrate (X县的县主) does not",
            "众人来到霜月门，又往霜月门去。霜月门的门主出来迎接，霜月门的门主笑道：“请。”\
             他们到了青禾县，青禾县的县主出来迎接，青禾县的县主笑道：“请。”青禾县的县主又道：“坐。”",
            &[(Faction, "霜月门"), (Place, "青禾县")],
            &[],
        ),
        (
            "a town's lord (X城城主) names no sect: the town stays a place",
            "众人来到青禾城，又往青禾城去。青禾城城主出来迎接，青禾城城主笑道：“请。”青禾城城主又道：“坐。”",
            &[(Place, "青禾城")],
            &[],
        ),
        (
            "a two-character stem the text sets before polity words (X人, X国, X王, X骑) is a people or state",
            "赫勒人南下了。赫勒国的使者到了。赫勒王大怒。赫勒骑兵三千。众人都怕赫勒人。大军往赫勒去。",
            &[(Faction, "赫勒")],
            &[],
        ),
        (
            "a verb before a state is no people (退|宋), though it is set before polity words",
            "宋军大败。退宋人马三千。退宋兵又来。退宋将官大怒。退宋军士四散。退宋之计已成。宋兵到了。",
            &[(Faction, "宋")],
            &["退宋"],
        ),
        (
            "a sect's head named with his surname between (X山庄韩庄主) makes it a faction, by its longer name when both are said as often",
            "青杉山庄韩庄主到了。青杉山庄的人随后赶来。众人都怕青杉山庄。苏青禾道：“青杉山庄柯庄主也来了。”",
            &[(Faction, "青杉山庄")],
            &["杉山庄"],
        ),
        (
            "a place its people move to more often than they name its head stays a place",
            "众人来到霜月谷外，又往霜月谷去，回到霜月谷中，霜月谷谷主出来迎接。",
            &[(Place, "霜月谷")],
            &[],
        ),
        (
            "a verb after an ordinary word is no sect (分明教 has no 明教)",
            "他分明教人去了。这分明教他为难。分明教我如何是好。",
            &[],
            &["分明教", "明教"],
        ),
        (
            "a unit counted in troops is an army though its stem is also in a name",
            "韩飞熊道：“点兵。”韩飞熊笑道：“好。”韩飞熊大怒。韩飞熊又道：“走。”\
             韩飞熊点起三千飞熊兵出城。五千飞熊兵随后赶来。只见飞熊兵杀到。",
            &[(Army, "飞熊兵"), (Person, "韩飞熊")],
            &["千飞熊兵", "熊兵"],
        ),
        (
            "a unit counted in troops after its name, twice, is an army",
            "石敢当领霜锋骑出城，霜锋骑三千随后。柯北辰又调霜锋骑一万来援。霜锋骑杀到。",
            &[(Army, "霜锋骑")],
            &["锋骑"],
        ),
        (
            "in a chapter, a unit said twice and counted once is an army",
            "石敢当率霜锋骑驰援。三千霜锋骑连夜出发。",
            &[(Army, "霜锋骑")],
            &["锋骑"],
        ),
        (
            "said once, though counted, it is no army",
            "三千霜锋骑连夜出发。",
            &[],
            &["霜锋骑", "锋骑"],
        ),
        (
            "a guard unit counted in heads is an army though its suffix is weak",
            "数十名霜月卫杀进城来。两名霜月卫守在门口。霜月卫的刀光一闪。三名霜月卫倒地。",
            &[(Army, "霜月卫")],
            &["月卫"],
        ),
        (
            "a weak suffix without a count of men makes no army: a garrison town (an army would take the place's mentions)",
            "他们到了霜月卫，霜月卫城门大开。霜月卫的百姓出来迎接。",
            &[(Place, "霜月卫")],
            &["月卫"],
        ),
        (
            "a numbered modern unit is an army",
            "第七营连夜出发，第七营的战士个个精神。第七营营长说：“走。”",
            &[(Army, "第七营")],
            &["七营"],
        ),
        (
            "units numbered in Arabic numerals: three digits a designation, fewer in a series",
            "团长道：“走。”团长笑道：“好。”团长又道：“来。”旅长道：“是。”旅长笑了。旅长走了。\
             771团出发了，771团到了。386旅赶来，386旅的人很多。38团也来了，38团到了。",
            &[(Army, "771团"), (Army, "386旅"), (Army, "38团")],
            &["团", "旅"],
        ),
        (
            "one Arabic-numbered unit of two digits alone may be a count: no army",
            "连长道：“走。”连长笑道：“好。”连长又道：“来。”\
             他们12连出发了，12连到了。",
            &[],
            &["12连", "连"],
        ),
        (
            "a character the book writes before a numbered unit names it (新二团), a verb does not",
            "团长道：“走。”团长笑道：“好。”团长又道：“来。”营长道：“是。”营长笑了。营长走了。\
             新二团出发了，新二团到了，新二团走了。三团也来了，三团到了。\
             他带一营走了，带一营去了。二营来了，二营到了。",
            &[(Army, "新二团"), (Army, "三团"), (Army, "一营"), (Army, "二营")],
            &["二团", "带一营"],
        ),
        (
            "generic nouns and titles are never entities",
            "丞相道：“主公，二人已至中军大营，伏兵四起。”大王大怒，令众将速回大营。",
            &[],
            &["丞相", "主公", "二人", "中军", "大营", "伏兵", "大王", "众将"],
        ),
        (
            "forms of address and role nouns of vernacular fiction are generic",
            "伴当道：“相爷来了。”只见伴当笑道：“劣兄请。”那伴当又道：“走。”却说伴当问道：“何人？”",
            &[],
            &["伴当", "相爷", "劣兄"],
        ),
        (
            "a list of troops names its commanders",
            "而关内，乙室拔业兵马、刘延庆兵马、郭药师兵马早已在此准备。",
            &[(Person, "刘延庆"), (Person, "郭药师"), (Person, "乙室拔业")],
            &["兵马"],
        ),
        (
            "a verb and its complement before an army suffix make no army",
            "韩千山布开人马，等候来人。石敢当布开人马，又见阶车。次日苏青禾领命，布开人马，到军前搦战。",
            &[],
            &["布开人马"],
        ),
        (
            "a state's camp said once in a chapter that names the state is its army",
            "金国大兵压境。金国元帅领兵来攻。韩千山从金营逃回。石敢当从秦营逃回。",
            &[(Army, "金营")],
            &["秦营"],
        ),
        (
            "a list with two known persons names its whole items, 其 or 何 inside; its edges run on",
            "韩千山道：“走。”韩千山笑道：“好。”韩千山问道：“何人？”\
             石敢当道：“来。”石敢当笑道：“坐。”石敢当问道：“谁？”\
             次日拘到韩千山、苏君其、石敢当一干人。韩千山、石敢当、苏虎等，都在堂上。",
            &[(Person, "韩千山"), (Person, "石敢当"), (Person, "苏君其")],
            &["苏虎等", "拘到韩千山", "石敢当一干人"],
        ),
        (
            "a woman named by her family (surname + 氏) is a person; 氏 inside a name is not",
            "韩氏道：“相公回来了。”韩氏笑道：“快坐。”韩氏又问道：“可曾吃饭？”\
             柯氏兄弟道：“走。”柯氏兄弟笑道：“好。”",
            &[(Person, "韩氏")],
            &["韩氏兄", "柯氏兄"],
        ),
        (
            "a sobriquet + a title written after names is a person; a demonstrative + title is not",
            "青霞真人道：“来了。”只见青霞真人笑道：“好。”却说青霞真人大怒，又见青霞真人拍案而起。\
             老先生道：“坐。”老先生笑道：“请。”那和尚道：“阿弥陀佛。”那和尚笑道：“罢了。”",
            &[(Person, "青霞真人")],
            &["老先生", "那和尚", "真人"],
        ),
        (
            "a reign name + 帝 said twice is a person",
            "天祚帝先逃，背后追兵甚急。天祚帝见状忧愁不已。",
            &[(Person, "天祚帝")],
            &["祚帝"],
        ),
    ];

    #[test]
    fn frequent_clause_openers_and_places_gone_to_by_table() {
        let st = |count, left_punct, right_distinct, mov, left_distinct| Stat {
            count,
            left_punct,
            right_distinct,
            mov,
            left_distinct,
            ..Stat::default()
        };
        type Test = fn(&Stat, u64, [f32; 3]) -> bool;
        // (test, stat, characters of text, [none, person, place], taken)
        let table: [(Test, Stat, u64, [f32; 3], bool); 15] = [
            (
                opens_clauses_often,
                st(25, 16, 12, 0, 0),
                3_000,
                [0.66, 0.33, 0.01],
                true,
            ),
            (
                opens_clauses_often,
                st(5, 3, 2, 0, 0),
                5_000,
                [0.6, 0.3, 0.1],
                true,
            ),
            // too rare for the text, or said too few times
            (
                opens_clauses_often,
                st(5, 3, 2, 0, 0),
                6_000,
                [0.6, 0.3, 0.1],
                false,
            ),
            (
                opens_clauses_often,
                st(4, 4, 4, 0, 0),
                1_000,
                [0.6, 0.3, 0.1],
                false,
            ),
            // not opening clauses, or always before the same character
            (
                opens_clauses_often,
                st(10, 4, 9, 0, 0),
                3_000,
                [0.6, 0.3, 0.1],
                false,
            ),
            (
                opens_clauses_often,
                st(10, 9, 3, 0, 0),
                3_000,
                [0.6, 0.3, 0.1],
                false,
            ),
            // the model reads a place, or hardly a person
            (
                opens_clauses_often,
                st(10, 9, 9, 0, 0),
                3_000,
                [0.5, 0.2, 0.3],
                false,
            ),
            (
                opens_clauses_often,
                st(10, 9, 9, 0, 0),
                3_000,
                [0.91, 0.06, 0.03],
                false,
            ),
            (
                moved_to_often,
                st(5, 0, 0, 2, 3),
                3_000,
                [0.65, 0.01, 0.34],
                true,
            ),
            (
                moved_to_often,
                st(4, 0, 0, 1, 2),
                4_000,
                [0.6, 0.1, 0.3],
                true,
            ),
            // too rare, never gone to, always after the same character
            (
                moved_to_often,
                st(4, 0, 0, 1, 2),
                5_000,
                [0.6, 0.1, 0.3],
                false,
            ),
            (
                moved_to_often,
                st(5, 0, 0, 0, 3),
                3_000,
                [0.65, 0.01, 0.34],
                false,
            ),
            (
                moved_to_often,
                st(6, 0, 0, 2, 1),
                3_000,
                [0.65, 0.01, 0.34],
                false,
            ),
            // the model hardly reads a place, or reads a person more
            (
                moved_to_often,
                st(5, 0, 0, 2, 3),
                3_000,
                [0.85, 0.05, 0.1],
                false,
            ),
            (
                moved_to_often,
                st(5, 0, 0, 2, 3),
                3_000,
                [0.4, 0.31, 0.29],
                false,
            ),
        ];
        for (test, stat, chars, p, want) in table {
            assert_eq!(test(&stat, chars, p), want, "{stat:?} {chars} {p:?}");
        }
    }

    #[test]
    fn a_person_the_army_rule_took_without_a_surname_or_counted_goes() {
        let d = |name: &str, kind, evidence: &[&'static str]| {
            decided_owned(name.to_string(), kind, 0.6, evidence, 5)
        };
        let first = vec![
            d("新编营", Person, &["act", "model"]),
            d("韩营", Person, &["sur", "model"]),
            d("柯北营", Place, &["sfx"]),
            d("苏青禾", Person, &["sur", "say"]),
        ];
        let armies = vec![
            d("新编营", Army, &["army", "stat"]),
            d("韩营", Army, &["army"]),
            d("柯北营", Army, &["army"]),
        ];
        let kept = |counted: fn(&str) -> bool| -> Vec<(String, EntityType)> {
            drop_persons_taken_as_armies(first.clone(), &armies, counted)
                .into_iter()
                .map(|d| (d.name, d.kind))
                .collect()
        };
        let want = [("韩营", Person), ("柯北营", Place), ("苏青禾", Person)];
        assert_eq!(
            kept(|_| false),
            want.map(|(n, k)| (n.to_string(), k)).to_vec()
        );
        // With a surname, counted in troops (五千韩营): the army's too. A
        // person the army rule did not take stays, counted or not.
        let want = [("柯北营", Place), ("苏青禾", Person)];
        assert_eq!(
            kept(|w| w == "韩营" || w == "苏青禾"),
            want.map(|(n, k)| (n.to_string(), k)).to_vec()
        );
    }

    #[test]
    fn the_shipped_model_matches_the_features() {
        assert!(builtin_model().is_some());
    }

    #[test]
    fn rule_table() {
        for (rule, text, want, never) in CASES {
            let got = found(text);
            for (kind, name) in *want {
                assert!(
                    got.contains(&(*kind, name.to_string())),
                    "{rule}: expected {kind} {name} in {got:?}"
                );
            }
            for name in *never {
                assert!(
                    !got.iter().any(|(_, n)| n == name),
                    "{rule}: did not expect {name} in {got:?}"
                );
            }
        }
    }

    #[test]
    fn mentions_are_typed_spans() {
        let text = "柯北辰道：“走。”柯北辰率兵直奔青石关，攻青石关三日。";
        let catalog = recognizer().discover(&[text]);
        let spans: Vec<(EntityType, &str)> = catalog
            .find_mentions(text)
            .iter()
            .map(|m| (catalog.get(m.entity).kind, &text[m.start..m.end]))
            .collect();
        assert_eq!(
            spans,
            vec![
                (Person, "柯北辰"),
                (Person, "柯北辰"),
                (Place, "青石关"),
                (Place, "青石关"),
            ]
        );
    }

    #[test]
    fn an_epithet_the_text_introduces_is_the_persons_alias() {
        let text = "石敢当道：“走。”石敢当笑道：“好。”石敢当是一营营长，人称石老虎，\
                    打仗从来不要命。石老虎又来了。";
        let catalog = recognizer().discover(&[text]);
        let e = catalog
            .entities()
            .iter()
            .find(|e| e.name == "石敢当")
            .unwrap_or_else(|| panic!("石敢当 in {:?}", catalog.entities()));
        assert!(e.aliases.contains(&"石老虎".to_string()), "{e:?}");
        assert!(e.evidence.contains(&"epithet".to_string()), "{e:?}");
        // Not the speaker's, nor the master's before 的.
        let text = "柯北辰道：“走。”柯北辰笑道：“好。”韩千山道：“来。”韩千山笑道：“是。”\
                    柯北辰道：“此人乃韩千山的徒弟，绰号霜月剑。”";
        let catalog = recognizer().discover(&[text]);
        for e in catalog.entities() {
            assert!(!e.aliases.contains(&"霜月剑".to_string()), "{e:?}");
        }
        // Introduced before anyone is named: the first person named after
        // it in the sentence; but not past the sentence's end.
        let text = "柯北辰道：“走。”柯北辰笑道：“好。”韩千山道：“来。”韩千山笑道：“是。”\
                    领头的是个大汉，人称独眼狼，正是霜月门的香主韩千山。\
                    那人绰号霜月剑。\n  柯北辰又道：“罢了。”";
        let catalog = recognizer().discover(&[text]);
        let who = |epithet: &str| -> Vec<String> {
            catalog
                .entities()
                .iter()
                .filter(|e| e.aliases.contains(&epithet.to_string()))
                .map(|e| e.name.clone())
                .collect()
        };
        assert_eq!(who("独眼狼"), vec!["韩千山".to_string()]);
        assert!(who("霜月剑").is_empty(), "{:?}", catalog.entities());
    }

    #[test]
    fn counts_of_people_by_table() {
        let r = recognizer();
        for (w, want) in [
            ("王马二人", true),
            ("叁位", true),
            ("韩苏三位", true),
            ("丁家兄弟", true),
            ("耿氏弟兄", true),
            ("苏家姐妹", true),
            ("韩铁衣", false),
            ("苏家姐姐", false),
            ("兄弟", false),
            ("韩二", false),
            ("人人", false),
        ] {
            assert_eq!(r.counts_people(w), want, "{w}");
        }
    }

    #[test]
    fn a_count_of_people_and_its_coordinated_surnames_name_no_one() {
        let persons: Vec<String> = recognizer()
            .discover(&[
                "韩铁衣道：“走。”韩铁衣笑道：“好。”韩铁衣率兵去了。韩铁衣又道：“来。”\
                 苏青禾道：“是。”苏青禾笑道：“好。”苏青禾率兵去了。苏青禾又道：“来。”\
                 韩苏二人道：“走。”韩苏二人笑道：“好。”韩苏二人又道：“来。”\
                 韩苏道：“走。”韩苏笑道：“好。”叁位道：“来。”叁位笑道：“是。”叁位又道：“好。”\
                 柯北辰、韩铁衣二人同去。",
            ])
            .entities()
            .iter()
            .filter(|e| e.kind == Person)
            .map(|e| e.name.clone())
            .collect();
        for group in ["韩苏二人", "韩苏", "叁位", "韩铁衣二人"] {
            assert!(
                !persons.contains(&group.to_string()),
                "{group} in {persons:?}"
            );
        }
        for one in ["韩铁衣", "苏青禾"] {
            assert!(
                persons.contains(&one.to_string()),
                "{one} not in {persons:?}"
            );
        }
    }

    #[test]
    fn forms_of_address_and_nicknames_are_persons() {
        let persons = |text: &str| -> Vec<(String, Vec<String>)> {
            recognizer()
                .discover(&[text])
                .entities()
                .iter()
                .filter(|e| e.kind == Person)
                .map(|e| (e.name.clone(), e.aliases.clone()))
                .collect()
        };
        // 老 + the surname of one person is that person; 阿 + a character
        // said as a person is a nickname; 老 + a surname nobody has in full
        // is a person of its own.
        let text = "韩铁衣道：“走。”韩铁衣笑道：“好。”韩铁衣率兵去了。\
                    “老韩，师部的命令到了。”“老韩，走吧。”“老韩，快看。”\
                    阿豹说：“来了。”阿豹笑道：“好。”阿豹又道：“走。”\
                    助理老柯说：“请。”老柯道：“是。”老柯笑道：“好。”";
        let got = persons(text);
        let han = got.iter().find(|p| p.0 == "韩铁衣").expect("韩铁衣");
        assert!(han.1.contains(&"老韩".to_string()), "{got:?}");
        assert!(got.iter().any(|p| p.0 == "阿豹"), "{got:?}");
        assert!(got.iter().any(|p| p.0 == "老柯"), "{got:?}");
        // A plain verb with an aspect particle after a name (睁着, 哭了)
        // says a person as a cue would; a function character before the
        // particle (的了) or none (眼睛) does not.
        for (text, want) in [
            ("阿鹞睁着眼睛", true),
            ("阿鹞哭了一场", true),
            ("阿鹞眼睛很大", false),
            ("阿鹞的了", false),
        ] {
            let store = corpus::RunStore::new(&[text]);
            let runs = store.runs();
            let run = runs.at(0);
            assert_eq!(recognizer().name_context(&run, 0, 2).0, want, "{text}");
        }
        // 总 after a surname addresses a company's head (dict/honorifics.txt).
        let text = "石敢当道：“走。”石敢当笑道：“好。”石敢当进了大楼。\
                    石总点了点头。石总看着合同，半天没吭声。";
        let got = persons(text);
        let shi = got.iter().find(|p| p.0 == "石敢当").expect("石敢当");
        assert!(shi.1.contains(&"石总".to_string()), "{got:?}");
        // A form jieba lists as a common word (老周: t) is one too, unless
        // the book also says it as a noun (一个小童).
        let text = "老周说：“走。”老周笑道：“好。”老周又道：“来。”\
                    一个小童跑来。小童道：“走。”小童笑道：“好。”小童又道：“来。”";
        let got = persons(text);
        assert!(got.iter().any(|p| p.0 == "老周"), "{got:?}");
        assert!(!got.iter().any(|p| p.0 == "小童"), "{got:?}");
        // A modern unit's orderlies are named after their role (警卫员,
        // 通讯员 in dict/titles.txt): the role word is person context.
        let text = "警卫员小柯一溜烟跑了。天亮时警卫员小柯把信送到。\
                    通讯员小柯摸黑出了村。";
        let got = persons(text);
        assert!(got.iter().any(|p| p.0 == "小柯"), "{got:?}");
        // A word across an edge (古老|, 老百姓), a title after the surname
        // (小韩王) or a relative (阿叔) is no form; nor one said as a place.
        let text = "古老韩家的规矩。古老韩家又来了。古老韩家走了。\
                    小韩王道：“走。”小韩王笑道：“好。”小韩王又道：“来。”\
                    阿叔道：“走。”阿叔笑道：“好。”阿叔又道：“来。”\
                    众人进小柯，又到小柯，回到小柯，小柯道：“来。”";
        let got = persons(text);
        for form in ["老韩", "小韩", "阿叔", "小柯"] {
            assert!(!got.iter().any(|p| p.0 == form), "{form} in {got:?}");
        }
    }

    #[test]
    fn transliterated_names_are_persons_in_a_book_that_has_them() {
        let persons = |text: &str| names_of(text, Person);
        let two = "塔莎说：“走。”塔莎笑道：“好。”塔莎又道：“来。”";
        let text = format!(
            "克洛维斯说：“走。”克洛维斯笑道：“好。”克洛维斯又道：“来。”\
             塞琳娜说：“是。”塞琳娜笑道：“好。”塞琳娜问道：“谁？”{two}"
        );
        let got = persons(&text);
        for name in ["克洛维斯", "塞琳娜", "塔莎"] {
            assert!(got.iter().any(|n| n == name), "{name} in {got:?}");
        }
        // Parts of a longer name are not names of their own.
        assert!(!got.iter().any(|n| n == "洛维斯" || n == "克洛"), "{got:?}");
        // Such a run and a place suffix is a place.
        let town = format!("{text}维尔斯堡的街道上有雾。维尔斯堡很大。众人离了维尔斯堡。");
        let places = names_of(&town, Place);
        assert!(places.iter().any(|p| p == "维尔斯堡"), "{places:?}");
        // Two characters alone, in a book without longer foreign names,
        // may be a phrase read by chance.
        let got = persons(two);
        assert!(!got.iter().any(|n| n == "塔莎"), "{got:?}");
    }

    #[test]
    fn a_foreign_full_name_written_with_a_dot_joins_its_parts() {
        let text =
            "克洛维斯·莫尔森醒了。克洛维斯说：“走。”克洛维斯笑道：“好。”克洛维斯又道：“来。”\
                    塞琳娜·莫尔森进来。塞琳娜说：“是。”塞琳娜笑道：“好。”塞琳娜问道：“谁？”\
                    莫尔森说：“嗯。”莫尔森笑道：“好。”莫尔森又道：“走。”\
                    奥斯卡·诺顿来了。诺顿说：“你好。”诺顿笑道：“好。”诺顿又道：“来。”\
                    奥斯卡说：“坐。”奥斯卡笑道：“好。”奥斯卡问道：“谁？”";
        let catalog = recognizer().discover(&[text]);
        let person = |name: &str| {
            catalog
                .entities()
                .iter()
                .find(|e| e.name == name)
                .unwrap_or_else(|| panic!("{name} in {:?}", catalog.entities()))
        };
        // The full name is the given name's alias; a family name that
        // follows one person's name only is that person.
        let oscar = person("奥斯卡");
        assert!(
            oscar.aliases.contains(&"奥斯卡·诺顿".to_string()),
            "{oscar:?}"
        );
        assert!(oscar.aliases.contains(&"诺顿".to_string()), "{oscar:?}");
        assert!(person("克洛维斯")
            .aliases
            .contains(&"克洛维斯·莫尔森".to_string()));
        // A family name two siblings share stays apart.
        assert!(!person("克洛维斯").aliases.contains(&"莫尔森".to_string()));
        assert!(!person("塞琳娜").aliases.contains(&"莫尔森".to_string()));
    }

    #[test]
    fn a_title_form_no_rule_took_is_bound_or_dropped() {
        // 韩团长 has no cue of its own: only the forms pass takes it.
        let text = "韩铁衣道：“走。”韩铁衣笑道：“好。”韩铁衣率兵去了。\
                    韩团长点了点头。韩团长看着地图，半天没吭声。";
        let catalog = recognizer().discover(&[text]);
        let e = catalog
            .entities()
            .iter()
            .find(|e| e.name == "韩铁衣")
            .unwrap_or_else(|| panic!("韩铁衣 in {:?}", catalog.entities()));
        assert!(e.aliases.contains(&"韩团长".to_string()), "{e:?}");
        assert!(e.evidence.contains(&"form".to_string()), "{e:?}");
        // The title starts a longer word (老爷|子): no form of 韩铁衣's.
        let text = "韩铁衣道：“走。”韩铁衣笑道：“好。”韩铁衣率兵去了。\
                    韩老爷子点了点头。韩老爷子看着地图，半天没吭声。";
        let catalog = recognizer().discover(&[text]);
        for e in catalog.entities() {
            assert!(
                e.name != "韩老爷" && !e.aliases.contains(&"韩老爷".to_string()),
                "{e:?}"
            );
        }
        // Two men of that surname, equally named: bound to neither, and no
        // row of its own.
        let text = "韩铁衣道：“走。”韩铁衣笑道：“好。”韩千山道：“来。”韩千山笑道：“是。”\
                    韩团长点了点头。韩团长看着地图，半天没吭声。";
        let catalog = recognizer().discover(&[text]);
        for e in catalog.entities() {
            assert!(
                e.name != "韩团长" && !e.aliases.contains(&"韩团长".to_string()),
                "{e:?}"
            );
        }
        // A surname that ends a decided name (霜月谷|谷主) makes no form,
        // nor the epithet of the man named after it.
        let text = "柯北辰道：“走。”柯北辰笑道：“好。”柯北辰又道：“来。”\
                    众人来到霜月谷，又往霜月谷去，回到霜月谷中。\
                    霜月谷谷主柯北辰出来。霜月谷谷主柯北辰笑了。霜月谷谷主柯北辰走了。";
        let catalog = recognizer().discover(&[text]);
        for e in catalog.entities() {
            assert!(
                e.name != "谷谷主" && !e.aliases.contains(&"谷谷主".to_string()),
                "{e:?}"
            );
        }
    }

    #[test]
    fn courtesy_names_become_aliases_with_evidence() {
        for text in [
            "雷千峰字子岳，河东人也。雷千峰道：“愿往。”子岳笑道：“好。”雷千峰率兵去了。",
            "雷千峰，字子岳，河东人也。雷千峰道：“愿往。”子岳笑道：“好。”雷千峰率兵去了。",
        ] {
            let catalog = recognizer().discover(&[text]);
            let e = catalog
                .entities()
                .iter()
                .find(|e| e.name == "雷千峰")
                .unwrap_or_else(|| panic!("雷千峰 in {:?}", catalog.entities()));
            assert!(e.aliases.contains(&"子岳".to_string()), "{e:?}");
            assert!(e.evidence.contains(&"zi".to_string()), "{e:?}");
            assert!(!catalog.entities().iter().any(|x| x.name == "子岳"));
        }
    }

    #[test]
    fn alias_lists_merge_and_apply_only_when_the_canonical_is_named() {
        let mut lex = Lexicon::builtin();
        lex.add_aliases_text(std::path::Path::new("mine.tsv"), "柯北辰\t北辰公\n")
            .unwrap();
        let r = Recognizer::new(lex);
        let text = "柯北辰道：“走。”柯北辰笑道：“好。”柯北辰率兵去了。";
        let catalog = r.discover(&[text]);
        let e = catalog
            .entities()
            .iter()
            .find(|e| e.name == "柯北辰")
            .unwrap();
        assert_eq!(e.aliases, vec!["北辰公".to_string()]);
        assert!(e.evidence.contains(&"alias".to_string()));
        // 孔明 is 诸葛亮 only in a book that names 诸葛亮.
        let other = "孔明道：“走。”孔明笑道：“好。”孔明率兵去了。";
        let catalog = recognizer().discover(&[other]);
        let e = catalog
            .entities()
            .iter()
            .find(|e| e.name == "孔明")
            .unwrap();
        assert!(e.aliases.is_empty(), "{e:?}");
    }

    #[test]
    fn traditional_and_simplified_texts_give_one_catalog() {
        use crate::script::{FerrousConverter, Normalized, ScriptConfig};
        let conv = FerrousConverter::new(ScriptConfig::T2s).unwrap();
        let traditional = "耶律撻烈率軍至錦州。耶律撻烈道：「北平軍何在？」北平軍已入永樂城。";
        let simplified = "耶律挞烈率军至锦州。耶律挞烈道：「北平军何在？」北平军已入永乐城。";
        let converted = Normalized::new(traditional.to_string(), &conv).text;
        assert_eq!(converted, simplified);
        let a = found(&converted);
        assert_eq!(a, found(simplified));
        assert!(a.contains(&(Person, "耶律挞烈".to_string())), "{a:?}");
        assert!(a.contains(&(Army, "北平军".to_string())), "{a:?}");
    }

    #[test]
    fn output_is_deterministic() {
        let text =
            "柯北辰道：“走。”柯北辰率兵直奔青石关，攻青石关三日。契丹兵大败，契丹兵逃往锦州。";
        let a: Vec<Entity> = recognizer().discover(&[text]).entities().to_vec();
        let b: Vec<Entity> = Recognizer::new(Lexicon::builtin())
            .discover(&[text])
            .entities()
            .to_vec();
        assert_eq!(a, b);
        let c = recognizer().candidates(&[text]);
        assert_eq!(c, recognizer().candidates(&[text]));
        assert!(c.windows(2).all(|w| w[0].score >= w[1].score));
    }

    #[test]
    fn candidates_report_statistics_and_types() {
        let text = "柯北辰道：“走。”次日柯北辰率兵直奔青石关，攻青石关三日，遂令柯北辰守关。";
        let c = recognizer().candidates(&[text]);
        let k = c
            .iter()
            .find(|c| c.word == "柯北辰")
            .expect("柯北辰 is a candidate");
        assert_eq!(k.kind, Some(Person));
        assert_eq!(k.count, 3);
        assert!(
            k.cohesion > 0.0 && k.left_entropy > 0.0 && k.right_entropy > 0.0,
            "{k:?}"
        );
        assert!(c
            .iter()
            .any(|c| c.word == "青石关" && c.kind == Some(Place)));
    }
}
