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
//! | code    | meaning                                                                   |
//! |---------|---------------------------------------------------------------------------|
//! | `lex`   | listed in our lexicon (`dict/places.txt`, `dict/factions.txt`), or an army whose stem is |
//! | `sur`   | begins with a surname from `dict/surnames.txt` (single or compound)      |
//! | `say`   | followed by a speech cue (X道, X笑道, X曰, X问道 …)                        |
//! | `act`   | followed by an action cue (X率兵, X领着, X兵马 …), perhaps after an adverb |
//! | `cmd`   | preceded by a command or object cue (令X, 遣X, 擒住X …)                   |
//! | `ttl`   | next to a title (X将军, 都统X), or a reign name + 帝 (天祚帝)             |
//! | `mov`   | preceded by a movement cue (到/往/至/入/攻/守/屯/前往 X)                  |
//! | `loc`   | followed by a location cue (X城下, X一带, X之战, X关隘)                   |
//! | `sfx`   | ends with a place suffix (`dict/place_suffixes.txt`), or an army whose stem does |
//! | `army`  | army rule: faction, place, direction or X家 stem + army suffix            |
//! | `stat`  | corpus statistics: repeated, varied neighbours, clean boundaries          |
//! | `coord` | coordinated (、 与 和 或者, X兵马、Y兵马) with an entity of the same type |
//! | `poly`  | single-character faction: an army stem (秦军), X人 (金人), 伐X/入X, 宋金辽元四朝 |
//! | `alias` | merged with names from an alias list, or 海阳 with 海阳城                 |
//! | `zi`    | courtesy name stated in the text (董卓字仲颖, 刘备，字玄德)               |
//! | `form`  | a surname + title form (蒋爷, 白五弟) bound to the one person the book names by it |
//!
//! # Type decision order
//!
//! 1. Generic words and titles (`dict/generic.txt`, `dict/titles.txt`) are never entities.
//! 2. Lexicon factions are factions; lexicon places are places.
//! 3. A string ending with a strong army suffix (军, 兵, 骑兵 …) is never a
//!    person or place; it is an army if its stem is a faction, a place
//!    (listed, or accepted in step 4), a direction (南军), X家 (岳家军) or a
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

use super::corpus::{self, extend_key, CharLengths, CharSet, FxMap, Key, Run, Runs, KEY_CHARS};
use super::lexicon::{CueClass, Lexicon, PlaceClass, TitlePosition};
use super::model::{self, Model};
use super::{Catalog, Entity, EntityType};
use jieba_rs::Jieba;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::{OnceLock, RwLock};
use std::time::Instant;

mod curation;
mod features;
mod forms;

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

const CLASSES: usize = 8;

fn class_index(c: CueClass) -> usize {
    match c {
        CueClass::Say => 0,
        CueClass::Act => 1,
        CueClass::Cmd => 2,
        CueClass::Mov => 3,
        CueClass::Loc => 4,
        CueClass::Adv => 5,
        CueClass::Bnd => 6,
        CueClass::Nam => 7,
    }
}

/// Locative characters: after a name they form words with its last
/// character (城下, 山中) without making that boundary wrong.
const LOCATIVES: &str = "上下中内外前后里旁边东西南北间头左右";

/// jieba's tag of a dictionary word, coarsely.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tag {
    Person,
    Place,
    Proper,
    Other,
}

#[derive(Debug, Clone, Copy)]
struct WordInfo {
    freq: usize,
    tag: Tag,
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
    vocab: &'static Jieba,
    cues: FxMap<String, [u8; CLASSES]>,
    /// Characters that never belong to a given name (function characters,
    /// one-character speech and action verbs).
    not_given: CharSet,
    /// Function characters and one-character verbs, none excepted.
    verbish: CharSet,
    /// One-character verbs and adverbs that do not end a name (来, 见, 先).
    name_end_bad: CharSet,
    /// Function characters (`bnd` cues).
    bnd: CharSet,
    numerals: CharSet,
    /// Single-character factions that are polities (秦, 燕, 宋 …).
    factions_1: HashSet<String>,
    surnames: FxMap<String, u8>,
    titles: FxMap<String, TitlePosition>,
    /// Cues and titles of up to `MAX_CUE` characters, with every part they
    /// begin or end with, by key: what the context scans look up.
    affixes: FxMap<Key, Affix>,
    locatives: CharSet,
    demonstratives: CharSet,
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
    /// jieba dictionary look-ups, cached (a word's tag costs a segmentation).
    word_cache: std::sync::Mutex<FxMap<String, WordInfo>>,
    /// Sum of `lex.given_name_chars`.
    given_name_total: u64,
    /// The learned scorer of person and place candidates; `None` leaves
    /// the decision to the rules alone.
    model: Option<Model>,
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
    lpunct: u32,
    rpunct: u32,
    /// Occurrences whose left / right boundary cuts a common word and has no cue.
    lbad: u32,
    rbad: u32,
    /// Occurrences next to a function character on the left / right.
    lbnd: u32,
    rbnd: u32,
    /// Occurrences that are a whole clause after a movement cue (经由飞狐，).
    mov_clause: u32,
    /// Occurrences after a naming cue (叫做X).
    nam: u32,
    /// Occurrences after a demonstrative or classifier (那X, 这X, 一个X).
    ldem: u32,
    /// Occurrences with a strong person cue (weight 3, or a title).
    strong: u32,
    /// Occurrences whose last character starts a title (西门大|官人).
    rtitle_cut: u32,
    /// Occurrences whose first character makes a dictionary word with the
    /// character before it (点|清军马).
    lword: u32,
    /// Only counted (a part of a candidate, for cohesion), no contexts.
    aux: bool,
    /// Distinct neighbouring characters and Σ c·ln c of their counts.
    ldistinct: u32,
    rdistinct: u32,
    lsum: f64,
    rsum: f64,
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
        self.lpunct += o.lpunct;
        self.rpunct += o.rpunct;
        self.lbad += o.lbad;
        self.rbad += o.rbad;
        self.lbnd += o.lbnd;
        self.rbnd += o.rbnd;
        self.mov_clause += o.mov_clause;
        self.nam += o.nam;
        self.ldem += o.ldem;
        self.strong += o.strong;
        self.rtitle_cut += o.rtitle_cut;
        self.lword += o.lword;
    }

    fn person_cues(&self) -> u32 {
        self.say + self.act + self.cmd + self.title
    }

    fn place_cues(&self) -> u32 {
        self.mov + self.loc
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
        let id = match corpus::key_of(w) {
            Some(k) => self.index.get(&k),
            None => self.long_index.get(w),
        };
        id.filter(|&&i| i != PREFIX_ONLY)
            .map(|&i| &self.stats[i as usize])
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
            st.ldistinct += 1;
            st.lsum += c * c.ln();
        } else {
            st.rdistinct += 1;
            st.rsum += c * c.ln();
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
    /// The character before and the first one make a dictionary word.
    word: bool,
    cmd: u8,
    mov: u8,
    nam: u8,
    title: bool,
    bnd: bool,
    /// The boundary cuts a common word and no multi-character cue explains it.
    bad: bool,
}

/// What the text just after a position says about a name ending there.
#[derive(Debug, Default, Clone, Copy)]
struct RightFeat {
    /// The character before the boundary starts a title (大|官人).
    title_cut: bool,
    say: u8,
    act: u8,
    loc: u8,
    title: bool,
    bnd: bool,
    /// The boundary cuts a common word and no cue explains it.
    bad: bool,
}

/// Adds one occurrence's contexts to its candidate's statistics.
fn apply_feats(st: &mut Stat, l: LeftFeat, r: RightFeat, at_start: bool, at_end: bool) {
    if r.say >= 3 || r.act >= 3 || l.cmd >= 3 || l.title || r.title {
        st.strong += 1;
    }
    st.rtitle_cut += u32::from(r.title_cut);
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
        st.nam += 1;
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
        st.lpunct += 1;
    }
    if at_end {
        st.rpunct += 1;
    }
    st.lbnd += u32::from(l.bnd);
    st.ldem += u32::from(l.dem);
    st.lword += u32::from(l.word);
    st.rbnd += u32::from(r.bnd);
    st.lbad += u32::from(l.bad);
    st.rbad += u32::from(r.bad);
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
/// common word), looked up once per book: each slice of the book keeps its
/// own copy in front of the one all slices share (a lock per look-up would
/// cost more than the look-up).
struct Bigrams<'m> {
    /// By position in the current run (several features read each).
    at: Vec<Option<(bool, bool)>>,
    /// A direct-mapped cache: a pair's code and flags (`code << 2 | word << 1
    /// | common`) in the slot its hash picks, 0 when empty. One load per
    /// look-up, where a hash map costs two cache misses.
    local: Vec<u64>,
    shared: &'m RwLock<FxMap<u64, (bool, bool)>>,
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

/// Two sorted tallies as one.
fn merge_tallies(a: Vec<(u64, u32)>, b: Vec<(u64, u32)>) -> Vec<(u64, u32)> {
    let mut out = Vec::with_capacity(a.len().max(b.len()));
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

/// A (candidate, neighbouring character) pair as one map key.
#[inline]
fn neighbour(id: u32, c: char) -> u64 {
    ((id as u64) << 21) | c as u64
}

/// The counts of pass 2 over some runs; parts of the book add up.
struct Counts {
    stats: Vec<Stat>,
    /// Every (candidate, neighbouring character) pair seen, as a
    /// `neighbour` key and its count, sorted by key. (The scan appends the
    /// pairs to a list and counts them once sorted: a hash map entry per
    /// occurrence costs a cache miss each.)
    left: Vec<(u64, u32)>,
    right: Vec<(u64, u32)>,
    chars: FxMap<char, u32>,
    total_chars: u64,
}

impl Counts {
    fn new(candidates: usize) -> Counts {
        Counts {
            stats: vec![Stat::default(); candidates],
            left: Vec::new(),
            right: Vec::new(),
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
        self.left = merge_tallies(std::mem::take(&mut self.left), other.left);
        self.right = merge_tallies(std::mem::take(&mut self.right), other.right);
        for (k, v) in other.chars {
            *self.chars.entry(k).or_insert(0) += v;
        }
        self.total_chars += other.total_chars;
    }
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
    pub fn new(lexicon: Lexicon) -> Recognizer {
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
        let bnd: CharSet = lexicon
            .cues
            .iter()
            .filter(|(w, cs)| w.chars().count() == 1 && cs.iter().any(|c| c.class == CueClass::Bnd))
            .filter_map(|(w, _)| w.chars().next())
            .collect();
        let mut not_given = bnd.clone();
        for (w, cs) in &lexicon.cues {
            let strong_verb = cs
                .iter()
                .any(|c| matches!(c.class, CueClass::Say | CueClass::Act) && c.weight >= 2);
            if w.chars().count() == 1 && strong_verb {
                not_given.extend(w.chars());
            }
        }
        // 秦军掩, 武军舍: an army word is never inside a given name here.
        not_given.extend(['军', '兵']);
        // 高姓|大名: words about names are not in them.
        not_given.extend(['姓', '氏']);
        // Verbs and function characters, before names are let in again: the
        // edges of a name without a surname (来寻, 看罢).
        let mut name_end_bad = CharSet::new();
        for (w, cs) in &lexicon.cues {
            let verb = cs.iter().any(|c| {
                matches!(
                    c.class,
                    CueClass::Say | CueClass::Act | CueClass::Cmd | CueClass::Mov
                ) && c.weight >= 2
                    || c.class == CueClass::Adv
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
            let verb = cs
                .iter()
                .any(|c| matches!(c.class, CueClass::Cmd | CueClass::Mov) && c.weight >= 2);
            if w.chars().count() == 1 && verb {
                verbish.extend(w.chars());
            }
        }
        // Characters common in given names although they are also cues or
        // function characters (张三, 宋万, 雷千峰, 匡若愚, 王羲之).
        for c in
            "云来成和同安平文明仁德信一二三四五六七八九十百千万两若如似何多余诸众全本数之".chars()
        {
            not_given.remove(&c);
        }
        let numerals: CharSet = "一二三四五六七八九十百千万两几数〇零廿卅".chars().collect();
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
        let suffix_keys = by_key(&suffixes);
        let surname_first: CharSet = lexicon
            .surnames
            .keys()
            .filter_map(|w| w.chars().next())
            .collect();
        let suffix_first: CharSet = suffixes.keys().filter_map(|w| w.chars().next()).collect();
        let mut lex_names: FxMap<String, ()> = FxMap::default();
        let mut lex_first = CharLengths::default();
        let all_names = lexicon.places.iter().chain(lexicon.factions.iter()).chain(
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
        Recognizer {
            affixes: affixes(&cues, &titles),
            locatives: LOCATIVES.chars().collect(),
            demonstratives: "那这此该个位名".chars().collect(),
            surname_keys: by_key(&surnames),
            suffix_keys,
            lex_keys: by_key(&lex_names),
            lex: lexicon,
            // jieba's default dictionary as a vocabulary of common words
            // (never its tags as proof of a name: they are wrong half the time).
            vocab: crate::segment::base_dictionary(),
            cues,
            not_given,
            bnd,
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
            word_cache: Default::default(),
            given_name_total: lexicon_given_total,
            model: Some(builtin_model()),
        }
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
        let m = self.measure(&runs, false);
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
        let store = corpus::RunStore::new(chapters);
        let runs = store.runs();
        phase(t, "runs");
        let measured = self.measure(&runs, false);
        phase(t, "measure");
        let decided = self.decide(&runs, &measured);
        phase(t, "decide");
        Catalog::new(
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
        )
    }

    /// Candidate new words with their statistics and guessed type, for a
    /// user to review: every proposed string seen at least twice (once in a
    /// text under 20 000 characters) that is not a generic word, sorted by
    /// score (descending), then word.
    pub fn candidates(&self, chapters: &[&str]) -> Vec<Candidate> {
        let store = corpus::RunStore::new(chapters);
        let runs = store.runs();
        let measured = self.measure(&runs, true);
        let decided = self.decide(&runs, &measured);
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
            let le = side_entropy(st.count - st.lpunct, st.lsum, st.lpunct);
            let re = side_entropy(st.count - st.rpunct, st.rsum, st.rpunct);
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

    fn is_bnd(&self, c: char) -> bool {
        self.bnd.contains(&c)
    }

    fn is_generic(&self, w: &str) -> bool {
        self.lex.generic.contains(w) || self.lex.titles.contains_key(w)
    }

    /// jieba's dictionary entry for a word (frequency, tag), cached.
    fn word_info(&self, w: &str) -> Option<WordInfo> {
        if !self.vocab.has_word(w) {
            return None;
        }
        let mut cache = self.word_cache.lock().expect("word cache lock");
        if let Some(&info) = cache.get(w) {
            return Some(info);
        }
        let tag = match self.vocab.tag(w, false).as_slice() {
            [t] if t.word == w => t.tag.to_string(),
            _ => String::new(),
        };
        let tag = match tag.as_str() {
            "nr" | "nrt" | "nrfg" => Tag::Person,
            "ns" => Tag::Place,
            "nz" | "nt" => Tag::Proper,
            _ => Tag::Other,
        };
        let info = WordInfo {
            freq: self.vocab.suggest_freq(w),
            tag,
        };
        cache.insert(w.to_string(), info);
        Some(info)
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
            let w = if self.is_bnd(chars[0]) { w.min(1) } else { w };
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

    /// Proposes candidates, then counts them with their contexts. Both scans
    /// run on slices of the book in parallel; the partial tables are merged
    /// in book order (pass 1) or added up (pass 2), so the result does not
    /// depend on the thread count.
    fn measure<'a>(&self, runs: &Runs<'a>, all_parts: bool) -> Measured<'a> {
        let t0 = Instant::now();
        let parts = runs.slices();
        let tables: Vec<Table<'a>> = parts
            .par_iter()
            .map(|part| self.propose_all(part))
            .collect();
        let mut table = Table::default();
        for t in tables {
            table.append(t);
        }
        // In a long book, a string proposed once is kept only if listed.
        let book_chars: usize = runs.iter().map(|r| r.len()).sum();
        if book_chars > LONG_BOOK {
            table.prune(2, |w| self.lex_names.contains_key(w));
        }
        // Parts of candidates, counted for cohesion (only the `discover`
        // report needs them all; the army rule needs its stems).
        let proposed: Vec<&'a str> = table.words.clone();
        for w in proposed {
            if !all_parts && self.army_suffix(w).is_none() {
                continue;
            }
            let offs: Vec<usize> = w.char_indices().map(|(i, _)| i).skip(1).collect();
            for &o in &offs {
                for part in [&w[..o], &w[o..]] {
                    if part.chars().count() >= 2 {
                        table.add(part, corpus::key_of(part), true);
                    }
                }
            }
        }
        phase(t0, "measure: proposals");
        let index = CandidateIndex::new(&table);
        let bigrams = RwLock::new(FxMap::default());
        phase(t0, "measure: index");
        let counts = parts
            .par_iter()
            .map(|part| self.count_all(part, &index, &bigrams))
            .reduce(
                || Counts::new(0),
                |mut a, b| {
                    a.add(b);
                    a
                },
            );
        phase(t0, "measure: counts");
        let keys = index.keys;
        let Counts {
            mut stats,
            left,
            right,
            chars,
            total_chars,
        } = counts;
        for (st, &aux) in stats.iter_mut().zip(&table.aux) {
            st.aux = aux;
        }
        fold_side(&left, &mut stats, true);
        fold_side(&right, &mut stats, false);
        Measured {
            index: keys,
            long_index: table.long,
            words: table.words,
            stats,
            chars,
            total_chars,
            left,
            right,
        }
    }

    /// Pass 1 over some runs: every string the rules propose, and the
    /// lexicon's own names, in the order first seen.
    fn propose_all<'a>(&self, runs: &[Run<'a>]) -> Table<'a> {
        let mut table = Table::default();
        let mut props: Vec<(usize, usize)> = Vec::new();
        for run in runs {
            let n = run.len();
            for i in 0..n {
                props.clear();
                self.proposals(run, i, &mut props);
                for &(s, e) in &props {
                    table.add(run.sub(s, e), run.key(s, e), false);
                }
                // The lexicon's own names are found by the same scan.
                let max = self.lex_first.get(run.ch(i));
                if max > 0 {
                    for len in 2..=max.min(n - i) {
                        let (w, key) = (run.sub(i, i + len), run.key(i, i + len));
                        let listed = match key {
                            Some(k) => self.lex_keys.contains_key(&k),
                            None => self.lex_names.contains_key(w),
                        };
                        if listed {
                            table.add(w, key, false);
                        }
                    }
                }
            }
        }
        table
    }

    /// Pass 2 over some runs: every occurrence of every candidate, with its
    /// contexts. Context features depend on a boundary only: computed once
    /// per position, when some candidate first needs them.
    fn count_all(
        &self,
        runs: &[Run],
        index: &CandidateIndex,
        bigrams: &RwLock<FxMap<u64, (bool, bool)>>,
    ) -> Counts {
        let mut counts = Counts::new(index.aux.len());
        let (mut left, mut right) = (Vec::new(), Vec::new());
        let mut crossing = Bigrams {
            at: Vec::new(),
            local: vec![0; 1 << LOCAL_BIGRAM_BITS],
            shared: bigrams,
        };
        let mut lfeat: Vec<Option<LeftFeat>> = Vec::new();
        let mut rfeat: Vec<Option<RightFeat>> = Vec::new();
        for run in runs {
            let n = run.len();
            counts.total_chars += n as u64;
            lfeat.clear();
            lfeat.resize(n + 1, None);
            rfeat.clear();
            rfeat.resize(n + 1, None);
            crossing.at.clear();
            crossing.at.resize(n, None);
            #[allow(clippy::needless_range_loop)] // i indexes the run and both feature tables
            for i in 0..n {
                *counts.chars.entry(run.ch(i)).or_insert(0) += 1;
                if i + 1 == n || !index.may_start(run.ch(i), run.ch(i + 1)) {
                    continue;
                }
                let mut key = extend_key(0, run.ch(i));
                for len in 2..=index.max_len.min(n - i) {
                    let j = i + len;
                    let id = if len <= KEY_CHARS {
                        key = extend_key(key, run.ch(j - 1));
                        match index.keys.get(&key) {
                            Some(&slot) => slot,
                            // No candidate starts with these characters.
                            None => break,
                        }
                    } else {
                        match index.long.get(run.sub(i, j)) {
                            Some(&id) => id,
                            None => continue,
                        }
                    };
                    if id == PREFIX_ONLY {
                        continue;
                    }
                    let st = &mut counts.stats[id as usize];
                    st.count += 1;
                    if index.aux[id as usize] {
                        continue;
                    }
                    let lf = *lfeat[i].get_or_insert_with(|| self.left_feat(run, i, &mut crossing));
                    let rf =
                        *rfeat[j].get_or_insert_with(|| self.right_feat(run, j, &mut crossing));
                    apply_feats(st, lf, rf, i == 0, j == n);
                    if i > 0 {
                        left.push(neighbour(id, run.ch(i - 1)));
                    }
                    if j < n {
                        right.push(neighbour(id, run.ch(j)));
                    }
                }
            }
        }
        counts.left = tally(left);
        counts.right = tally(right);
        counts
    }

    /// Strings proposed at character `i` of a run (anchored there by a
    /// surname, or ending at a suffix or cue that starts at `i`), as
    /// character ranges of the run.
    fn proposals(&self, run: &Run, i: usize, out: &mut Vec<(usize, usize)>) {
        let n = run.len();
        let c = run.ch(i);
        // Surname + given name.
        if self.surname_first.contains(&c) {
            for slen in [2usize, 1] {
                if i + slen > n || !self.surname_keys.contains_key(&key(run, i, i + slen)) {
                    continue;
                }
                for glen in 1..=2 {
                    let j = i + slen + glen;
                    if j > n {
                        break;
                    }
                    if (i + slen..j).any(|k| self.not_given.contains(&run.ch(k))) {
                        break;
                    }
                    out.push((i, j));
                }
            }
        }
        // Stem + place suffix / army suffix starting at i.
        let suffix_max = if self.suffix_first.contains(&c) { 3 } else { 0 };
        for slen in 1..=suffix_max.min(n - i) {
            let Some(&(place, army)) = self.suffix_keys.get(&key(run, i, i + slen)) else {
                continue;
            };
            if !place && !army {
                continue;
            }
            let max_stem = if army { 4 } else { 3 };
            for stem in 1..=max_stem.min(i) {
                let k = i - stem;
                let first = run.ch(k);
                if stem > 1 && self.is_bnd(first) && !(place && self.numerals.contains(&first)) {
                    continue;
                }
                if stem == 1 && self.is_bnd(first) {
                    continue;
                }
                out.push((k, i + slen));
            }
        }
        // String before a person cue starting at i; string after a movement cue ending at i.
        for clen in 1..=MAX_CUE.min(n - i) {
            let Some(a) = self.affix(run, i, i + clen) else {
                break;
            };
            let strong_person = a.cue.is_some_and(|cue| {
                cue[class_index(CueClass::Say)] >= 3 || cue[class_index(CueClass::Act)] >= 3
            });
            if strong_person {
                for len in 2..=4usize.min(i) {
                    out.push((i - len, i));
                }
            }
            if !a.starts_longer {
                break;
            }
        }
        for clen in 1..=MAX_CUE.min(i) {
            let Some(a) = self.affix(run, i - clen, i) else {
                break;
            };
            if a.cue.is_some_and(|c| c[class_index(CueClass::Mov)] >= 3) {
                for len in 2..=4usize.min(n - i) {
                    out.push((i, i + len));
                }
            }
            if !a.ends_longer {
                break;
            }
        }
        out.retain(|&(s, e)| e - s <= MAX_CAND);
    }

    /// Context features of the boundary before character `j` seen from the
    /// left (a candidate ending at `j`): a cue right after, or after an
    /// adverb (马扩也领着). A one-character cue that starts a longer word
    /// (道路) or ends one with the candidate's last character (通道) is no cue.
    fn right_feat(&self, run: &Run, j: usize, crossing: &mut Bigrams) -> RightFeat {
        let n = run.len();
        let mut f = RightFeat::default();
        if j == n {
            if matches!(run.after, '：' | ':') {
                f.say = 2;
            }
            return f;
        }
        let adverb_end = |alen: usize| {
            let adverb = j + alen < n
                && self
                    .affix(run, j, j + alen)
                    .and_then(|a| a.cue)
                    .is_some_and(|c| c[class_index(CueClass::Adv)] > 0);
            if adverb {
                j + alen
            } else {
                usize::MAX
            }
        };
        let starts = [j, adverb_end(1), adverb_end(2)];
        for (si, &s) in starts.iter().enumerate() {
            if s == usize::MAX {
                continue;
            }
            for clen in 1..=MAX_CUE.min(n - s) {
                // No cue or title starts so: none starts with more either.
                let Some(a) = self.affix(run, s, s + clen) else {
                    break;
                };
                if clen >= 2 && si == 0 && a.title.is_some_and(|p| p.after_name()) {
                    f.title = true;
                }
                'cue: {
                    let Some(c) = a.cue else {
                        break 'cue;
                    };
                    if clen == 1 {
                        let glued_next = s + 2 <= n
                            && self.affix(run, s, s + 2).is_none_or(|a| a.cue.is_none())
                            && self.crosses(run, s, crossing);
                        let glued_prev = si == 0 && j > 0 && self.crosses(run, s - 1, crossing);
                        if glued_next || glued_prev {
                            break 'cue;
                        }
                    }
                    f.say = f.say.max(c[class_index(CueClass::Say)]);
                    f.act = f.act.max(c[class_index(CueClass::Act)]);
                    if si == 0 {
                        f.loc = f.loc.max(c[class_index(CueClass::Loc)]);
                    }
                }
                if !a.starts_longer {
                    break;
                }
            }
        }
        let cue = f.say >= 2 || f.act >= 2 || f.loc >= 2 || f.title;
        if j > 0 {
            for k in 1..=MAX_CUE.min(n + 1 - j) {
                let Some(a) = self.affix(run, j - 1, j - 1 + k) else {
                    break;
                };
                if k >= 2 && a.title.is_some_and(|p| p.after_name()) {
                    f.title_cut = true;
                    break;
                }
                if !a.starts_longer {
                    break;
                }
            }
        }
        f.bnd = self.is_bnd(run.ch(j));
        // 永乐城下, 燕山中: a locative after a name makes words (城下) freely.
        let locative = self.locatives.contains(&run.ch(j));
        f.bad = j > 0 && !cue && !locative && self.crosses(run, j - 1, crossing);
        f
    }

    /// Context features of the boundary before character `i` seen from the
    /// right (a candidate starting at `i`): a command, naming or movement
    /// cue, or a title, ending at `i`. A one-character cue that ends a
    /// longer word (待到) is no cue.
    fn left_feat(&self, run: &Run, i: usize, crossing: &mut Bigrams) -> LeftFeat {
        let mut f = LeftFeat::default();
        if i == 0 {
            return f;
        }
        let mut long_cue = false;
        for clen in 1..=MAX_CUE.min(i) {
            // No cue or title ends so: none ends with more either.
            let Some(a) = self.affix(run, i - clen, i) else {
                break;
            };
            if clen >= 2 && a.title.is_some_and(|p| p.before_name()) {
                f.title = true;
            }
            'cue: {
                let Some(c) = a.cue else {
                    break 'cue;
                };
                if clen == 1
                    && i >= 2
                    && self.affix(run, i - 2, i).is_none_or(|a| a.cue.is_none())
                    && self.crosses(run, i - 2, crossing)
                {
                    break 'cue;
                }
                let (cc, mc, nc) = (
                    c[class_index(CueClass::Cmd)],
                    c[class_index(CueClass::Mov)],
                    c[class_index(CueClass::Nam)],
                );
                f.cmd = f.cmd.max(cc);
                f.mov = f.mov.max(mc);
                f.nam = f.nam.max(nc);
                if clen >= 2 && (cc >= 2 || mc >= 2 || nc >= 2) {
                    long_cue = true;
                }
            }
            if !a.ends_longer {
                break;
            }
        }
        f.bnd = self.is_bnd(run.ch(i - 1));
        f.dem = self.demonstratives.contains(&run.ch(i - 1));
        f.word = i < run.len() && self.bigram_flags(run, i - 1, crossing).0;
        // A one-character cue glued into a word (出口) explains nothing.
        f.bad = i < run.len() && !(long_cue || f.title) && self.crosses(run, i - 1, crossing);
        f
    }

    /// The cue or title of characters `i..j` of a run (`j - i` at most
    /// `MAX_CUE`), or the longer ones it begins or ends; None if none.
    #[inline]
    fn affix(&self, run: &Run, i: usize, j: usize) -> Option<&Affix> {
        self.affixes.get(&key(run, i, j))
    }

    /// Whether characters `k..k + 2` of a run are a common word (jieba
    /// frequency ≥ 100), cached.
    fn crosses(&self, run: &Run, k: usize, cache: &mut Bigrams) -> bool {
        self.bigram_flags(run, k, cache).1
    }

    /// Whether characters `k..k + 2` of a run are (a dictionary word, a
    /// common one), cached per slice of the book.
    fn bigram_flags(&self, run: &Run, k: usize, cache: &mut Bigrams) -> (bool, bool) {
        if let Some(b) = cache.at[k] {
            return b;
        }
        let code = ((run.ch(k) as u64) << 21) | run.ch(k + 1) as u64;
        let slot = (code.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - LOCAL_BIGRAM_BITS)) as usize;
        let entry = cache.local[slot];
        if entry >> 2 == code {
            let b = (entry & 2 != 0, entry & 1 != 0);
            cache.at[k] = Some(b);
            return b;
        }
        let known = cache
            .shared
            .read()
            .expect("bigram lock")
            .get(&code)
            .copied();
        let b = known.unwrap_or_else(|| {
            let w = run.sub(k, k + 2);
            let word = self.vocab.has_word(w);
            let b = (word, word && self.vocab.suggest_freq(w) >= 100);
            cache.shared.write().expect("bigram lock").insert(code, b);
            b
        });
        cache.local[slot] = (code << 2) | (u64::from(b.0) << 1) | u64::from(b.1);
        cache.at[k] = Some(b);
        b
    }

    /// Smallest PMI over split points (nats); 0 when a part was not counted.
    fn cohesion(&self, w: &str, m: &Measured) -> f64 {
        let n = m.total_chars.max(1) as f64;
        let cw = m.count(w) as f64;
        if cw == 0.0 {
            return 0.0;
        }
        let mut best = f64::INFINITY;
        for (o, _) in w.char_indices().skip(1) {
            let (a, b) = (m.count(&w[..o]) as f64, m.count(&w[o..]) as f64);
            if a == 0.0 || b == 0.0 {
                continue;
            }
            best = best.min((cw * n / (a * b)).ln());
        }
        if best.is_finite() {
            best
        } else {
            0.0
        }
    }

    // ----- decision ------------------------------------------------------------

    fn decide(&self, runs: &Runs, m: &Measured) -> Vec<Decided> {
        let t0 = Instant::now();
        // Phase 1: persons, places and lexicon factions.
        // Each candidate on its own, in parallel (then sorted by name): the
        // rules first, then the learned model over the candidates it knows,
        // reading the rules' verdicts and the book's context model.
        let (rule, ctx) = self.rule_verdicts(m);
        // The model learned from chapters and books, not from snippets.
        let long_enough = m.total_chars >= MODEL_MIN_CHARS;
        let short = m.total_chars < SHORT_TEXT;
        phase(t0, "decide: rules");
        let mut first: Vec<Decided> = m
            .words
            .par_iter()
            .enumerate()
            .filter_map(|(i, &w)| {
                let st = &m.stats[i];
                match &self.model {
                    Some(model) if long_enough && self.model_judges(w, st) => {
                        let x = self.features(i, w, st, m, &ctx, rule_scores(&rule[i]));
                        self.model_verdict(w, st, model.predict(&x), rule[i].as_ref(), short)
                    }
                    _ => rule[i].clone(),
                }
            })
            .collect();
        first.sort_by(|a, b| a.name.cmp(&b.name).then(a.kind.cmp(&b.kind)));
        phase(t0, "decide: judge");
        let first = self.resolve_nested(first, runs);
        phase(t0, "decide: nested");
        let first = self.drop_overlapped(first, runs);
        phase(t0, "decide: overlapped");
        // Coordination: 润州或者迁州, 乙室拔业兵马、刘延庆兵马.
        let first = self.add_coordinated(first, runs, m);
        phase(t0, "decide: coordinated");
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
        // Phase 2: armies, whose stems may be phase-1 places.
        let places: HashSet<&str> = first
            .iter()
            .filter(|d| d.kind == EntityType::Place)
            .map(|d| d.name.as_str())
            .collect();
        let mut armies: Vec<Decided> = m
            .words
            .par_iter()
            .zip(&m.stats)
            .filter(|(_, st)| !st.aux && st.count > 0)
            .filter_map(|(&w, st)| self.judge_army(w, st, m, &places))
            .collect();
        armies.sort_by(|a, b| a.name.cmp(&b.name));
        phase(t0, "decide: armies");
        let armies = self.resolve_nested(armies, runs);
        phase(t0, "decide: nested armies");
        // Places that live only inside army names (北平 in 北平军) go.
        let mut all: Vec<Decided> = first
            .into_iter()
            .filter(|d| {
                d.kind != EntityType::Place || {
                    let inside: u32 = armies
                        .iter()
                        .filter(|a| a.name.contains(d.name.as_str()))
                        .map(|a| a.count)
                        .sum();
                    (d.count as f64) > inside as f64 * 1.0 + 0.25 * d.count as f64
                }
            })
            .collect();
        all.extend(armies);
        // 清军马 inside 张清军马: an army straddling a stronger person goes.
        let all = self.drop_overlapped(all, runs);
        phase(t0, "decide: overlapped armies");
        let (armies, mut all): (Vec<Decided>, Vec<Decided>) =
            all.into_iter().partition(|d| d.kind == EntityType::Army);
        all.extend(self.merge_armies(armies));
        let all = self.add_factions(all, runs);
        phase(t0, "decide: factions");
        let all = self.add_aliases(all, runs, m);
        let all = self.merge_faction_forms(all);
        let all = self.bind_title_forms(all, runs);
        let mut all = self.apply_user(all, m);
        phase(t0, "decide: aliases");
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
                    self.judge(w, st)
                }
            })
            .collect();
        let scores: Vec<(f64, f64)> = rule.iter().map(rule_scores).collect();
        let ctx = BookContext::learn(m, &scores);
        (rule, ctx)
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
            && !self
                .army_suffix(w)
                .is_some_and(|(l, weight)| weight >= 3 || l >= 2)
    }

    /// The model's decision from its class probabilities. The rules'
    /// evidence codes are kept when they agree on the type.
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
        if prob < MODEL_THRESHOLD || prob <= p[model::NONE] {
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
        d.evidence.insert("model");
        Some(d)
    }

    /// Whether a stem (the part of a candidate before its suffix) can start
    /// a name: not a function character (a numeral may start a place:
    /// 八达岭), not a cue word (距离锦州, 来自锦州, 打居庸关).
    fn stem_ok(&self, stem: &str, numeral_ok: bool) -> bool {
        let chars: Vec<char> = stem.chars().collect();
        let Some(&first) = chars.first() else {
            return false;
        };
        if self.is_bnd(first) && !(numeral_ok && self.numerals.contains(&first) && chars.len() > 1)
        {
            return false;
        }
        if chars.len() >= 2 {
            for l in 1..chars.len() {
                let head: String = chars[..l].iter().collect();
                let cue = self.cues.get(head.as_str());
                if cue.is_some_and(|c| {
                    c[class_index(CueClass::Mov)] >= 2
                        || c[class_index(CueClass::Cmd)] >= 2
                        || c[class_index(CueClass::Say)] >= 3
                        || (l >= 2 && c[class_index(CueClass::Act)] >= 2)
                }) {
                    return false;
                }
            }
        }
        true
    }

    /// Whether a string is an ordinary word of two or more characters
    /// followed by another or by a locative.
    fn plain_words_joined(&self, chars: &[char]) -> bool {
        let len = chars.len();
        for cut in 2..len {
            let head: String = chars[..cut].iter().collect();
            if !self.is_plain_word(&head) {
                continue;
            }
            let tail: String = chars[cut..].iter().collect();
            let tail_len = len - cut;
            // The tail's tag is not trusted (丘陵 is tagged a person name).
            if (tail_len == 1 && LOCATIVES.contains(chars[cut]))
                || (tail_len >= 2
                    && !self.lex.places.contains(&tail)
                    && self.is_frequent_word(&tail, 100))
            {
                return true;
            }
        }
        false
    }

    /// A common word in jieba's dictionary whose tag is not a name tag.
    fn is_plain_word(&self, w: &str) -> bool {
        self.tag_of(w) == Some(Tag::Other)
    }

    /// Phase 1: decides one candidate string as a person, place or
    /// lexicon faction.
    fn judge(&self, w: &str, st: &Stat) -> Option<Decided> {
        let chars: Vec<char> = w.chars().collect();
        let len = chars.len();
        if len < 2 || self.is_generic(w) {
            return None;
        }
        if self.lex.factions.contains(w) {
            // Multi-character factions; single-character ones come in add_factions.
            if w.ends_with('人') || st.lbad + st.rbad >= st.count {
                return None;
            }
            return Some(decided(w, EntityType::Faction, 0.9, &["lex"], st));
        }
        if self.lex.places.contains(w) {
            return Some(decided(w, EntityType::Place, 0.9, &["lex"], st));
        }
        // An army word is decided in phase 2, never as a person or place
        // (but 郭药师 ends with 师, a weak army suffix).
        if self
            .army_suffix(w)
            .is_some_and(|(l, weight)| weight >= 3 || l >= 2)
        {
            return None;
        }
        // Boundaries: most occurrences must not cut a common word.
        if (st.lbad + st.rbad) as f64 > 0.5 * st.count as f64 {
            return None;
        }
        // Always the same neighbour on one side: a piece of a longer word (山间通|道).
        if st.count >= 3
            && ((st.rdistinct == 1 && st.rpunct == 0) || (st.ldistinct == 1 && st.lpunct == 0))
        {
            return None;
        }
        // Two ordinary words side by side (山谷入口, 两侧山崖), or one and a
        // locative (山谷中).
        if self.plain_words_joined(&chars) {
            return None;
        }
        let person = self.person_score(w, &chars, st);
        let place = self.place_score(w, &chars, st);
        match (person, place) {
            (Some(p), Some(l)) => Some(if p.score >= l.score { p } else { l }),
            (p, l) => p.or(l),
        }
    }

    /// Distinct neighbours on the left and on the right (a run edge is one).
    fn diversity(&self, st: &Stat) -> (usize, usize) {
        let lp = usize::from(st.lpunct > 0);
        let rp = usize::from(st.rpunct > 0);
        (st.ldistinct as usize + lp, st.rdistinct as usize + rp)
    }

    /// Phase 2: an army name (faction, place, direction, X家 or a repeated
    /// unknown stem + army suffix).
    fn judge_army(
        &self,
        w: &str,
        st: &Stat,
        m: &Measured,
        places: &HashSet<&str>,
    ) -> Option<Decided> {
        if self.is_generic(w) {
            return None;
        }
        let chars: Vec<char> = w.chars().collect();
        let (slen, weight) = self.army_suffix(w)?;
        let stem: String = chars[..chars.len() - slen].iter().collect();
        let suffix: String = chars[chars.len() - slen..].iter().collect();
        let stem_len = stem.chars().count();
        if self.is_generic(&stem) || self.lex.army_suffixes.contains_key(&stem) {
            return None;
        }
        // 神武军骑兵 is 神武军's cavalry, not another army.
        if self.army_suffix(&stem).is_some() {
            return None;
        }
        if (st.lbad + st.rbad) as f64 > 0.5 * st.count as f64 {
            return None;
        }
        // 著士兵, 上京师: the stem's last character and the suffix make an
        // ordinary word (士兵, 京师), so the suffix is not one here.
        let seam: String = [chars[stem_len - 1], chars[stem_len]].iter().collect();
        if stem_len >= 2 && self.is_plain_word(&seam) && !self.lex.army_suffixes.contains_key(&seam)
        {
            return None;
        }
        if !self.stem_ok(&stem, false) || stem.chars().skip(1).any(|c| self.is_bnd(c)) {
            return None;
        }
        // 远恶军|州: always the same neighbour, a piece of a longer word.
        if st.count >= 3
            && ((st.rdistinct == 1 && st.rpunct == 0) || (st.ldistinct == 1 && st.lpunct == 0))
        {
            return None;
        }
        let mut evidence = vec!["army"];
        // 秦军, 宋军; but not 韩先锋 (a surname and a title) nor 点清军马
        // (清 glued into the word 点清).
        let faction =
            self.is_faction_stem(&stem) && (stem_len > 1 || (weight >= 3 && st.lword < st.count));
        let place = self.lex.places.contains(&stem) || places.contains(stem.as_str());
        let score = if faction {
            evidence.push("lex");
            0.85
        } else if place && weight >= 2 {
            evidence.push(if self.lex.places.contains(&stem) {
                "lex"
            } else {
                "sfx"
            });
            0.8
        } else if weight < 2 {
            return None;
        } else if stem_len == 1 && "东南西北".contains(stem.as_str()) && suffix == "军" {
            0.6
        } else if stem_len == 2
            && stem.ends_with('家')
            && self
                .lex
                .surnames
                .contains_key(&stem[..stem.len() - '家'.len_utf8()])
        {
            // 岳家军
            evidence.push("sur");
            0.75
        } else if stem_len == 2
            && weight >= 3
            && st.count >= 3
            && self.stem_ok(&stem, false)
            && !self.is_plain_word(&stem)
            && !self.is_plain_word(w)
            && !chars[..2].iter().any(|c| self.is_bnd(*c))
            && m.count(&stem) <= st.count + st.count / 2
        {
            // An unknown stem that hardly occurs without the suffix (神武军).
            evidence.push("stat");
            0.5 + 0.1 * (st.count as f64 / 5.0).min(1.0)
        } else {
            return None;
        };
        Some(decided(w, EntityType::Army, score, &evidence, st))
    }

    fn person_score(&self, w: &str, chars: &[char], st: &Stat) -> Option<Decided> {
        let len = chars.len();
        // 阮小二, 武大: a birth-order given name may hold a numeral.
        let birth_order_at = |k: usize| {
            k >= 1 && matches!(chars[k - 1], '小' | '大') && self.numerals.contains(&chars[k])
        };
        if len > 4
            || (1..len)
                .any(|k| self.not_given.contains(&chars[k]) && !(k == len - 1 && birth_order_at(k)))
        {
            return None;
        }
        // 明日早, 方才走: a common word made by the surname and the next
        // character, then one more character.
        if len >= 3
            && self.tag_of(w) != Some(Tag::Person)
            && self.surname(chars, w).is_some_and(|(sl, _)| sl == 1)
        {
            let head: String = chars[..2].iter().collect();
            if self.is_plain_word(&head) && self.is_frequent_word(&head, 100) {
                return None;
            }
        }
        // 慕容 alone is a surname, not a name.
        if self.lex.places.contains(w)
            || self.lex.factions.contains(w)
            || self.surnames.contains_key(w)
        {
            return None;
        }
        let mut evidence: Vec<&'static str> = Vec::new();
        let n = st.count;
        let cues = st.person_cues();
        let (ld, rd) = self.diversity(st);
        let mut score = 0.0;
        let emperor = chars[len - 1] == '帝' && (2..=3).contains(&len);
        let sur = self
            .surname(chars, w)
            .filter(|&(sl, _)| (1..=2).contains(&(len - sl)));
        if emperor {
            // 天祚帝: a reign or temple name + 帝, said more than once.
            let stem: String = chars[..len - 1].iter().collect();
            if n < 2
                || !self.stem_ok(&stem, false)
                || self.is_plain_word(w)
                || self.is_plain_word(&stem)
                || self.is_generic(&stem)
            {
                return None;
            }
            score += 0.35;
            evidence.push("ttl");
        } else if let Some((sl, sw)) = sur {
            let given: String = chars[sl..].iter().collect();
            let gchars = &chars[sl..];
            // 阮小二, 武大: birth-order names are names although 小二 is a word.
            let birth_order = gchars.len() == 2
                && matches!(gchars[0], '小' | '大')
                && self.numerals.contains(&gchars[1]);
            // 阮小 (of 阮小二): an order prefix alone is no given name.
            if gchars.len() == 1 && "小大老阿".contains(gchars[0]) {
                return None;
            }
            // 钱来, 尹见, 戴宗先: a name does not end with a verb or an adverb.
            if self.name_end_bad.contains(&gchars[gchars.len() - 1]) {
                return None;
            }
            // 孔目禀, 王观察: a title is no name.
            if (2..=len.min(4)).any(|k| {
                let head: String = chars[..k].iter().collect();
                self.titles.contains_key(&head)
            }) || self.titles.contains_key(&given)
            {
                return None;
            }
            if !birth_order
                && (self.lex.address.contains(&given) || self.lex.titles.contains_key(&given))
            {
                return None;
            }
            // 高太尉, 宋太公: surname + title is a form of address, not a name.
            if (1..=gchars.len()).any(|k| {
                let head: String = gchars[..k].iter().collect();
                self.titles.get(&head).is_some_and(|p| p.after_name())
            }) {
                return None;
            }
            // 银一两, 公孙二: a count is no given name (a birth order is).
            if !birth_order && gchars.iter().all(|c| self.numerals.contains(c)) {
                return None;
            }
            // 西门大|官人: the name ends inside a title that follows it.
            if st.rtitle_cut * 2 > n {
                return None;
            }
            // 祝家庄, 李家店: X家 + anything is a family's place or army.
            if gchars[0] == '家' {
                return None;
            }
            // 江湖上, 林子里: a name does not end with a locative.
            if "上下里内外前后边旁头间".contains(gchars[gchars.len() - 1]) {
                return None;
            }
            // 那妇人, 都来, 何人: a surname that is also a function character
            // needs a given name that is no word and cues.
            if self.is_bnd(chars[0])
                && (cues == 0 || self.vocab.has_word(&given) || self.is_generic(&given))
            {
                return None;
            }
            // A surname that is also a common character (有, 来, 双, 后)
            // needs repeated, cued mentions.
            if sw <= 1
                && (cues < 3
                    || n < 3
                    || (cues as f64) < 0.1 * n as f64
                    || self.verbish.contains(&gchars[gchars.len() - 1]))
            {
                return None;
            }
            // A surname that is also a function character (有, 何, 于): the
            // name must be met in many different places (not 有分教).
            if self.is_bnd(chars[0]) && (ld < 4 || rd < 4 || (cues as f64) < 0.2 * n as f64) {
                return None;
            }
            // 石碣村, 山寨中: a given name holds no settlement word (but 定国 may).
            if gchars.iter().any(|c| "州府县郡城寨堡村庄镇".contains(*c)) {
                return None;
            }
            score += [0.0, 0.15, 0.3, 0.35][sw as usize];
            evidence.push("sur");
        } else {
            // No surname: only strong, repeated evidence, varied
            // neighbours, and no word inside (汉慌忙).
            if n < 3 || (cues as f64) < 0.4 * n as f64 || cues < 3 || ld < 3 || rd < 3 {
                return None;
            }
            if self.vocab.has_word(w) || chars.iter().any(|c| self.is_bnd(*c)) {
                return None;
            }
            // 来寻, 看罢, 冈子, 上厅: no verb, suffix or locative at an edge.
            let edge_bad = |c: char| {
                self.verbish.contains(&c)
                    || LOCATIVES.contains(c)
                    || self
                        .lex
                        .place_suffixes
                        .get(&c.to_string())
                        .is_some_and(|p| p.weight >= 2)
            };
            if edge_bad(chars[0]) || edge_bad(chars[len - 1]) {
                return None;
            }
            for a in 0..len {
                for b in a + 2..=len {
                    let part: String = chars[a..b].iter().collect();
                    if self.is_plain_word(&part) {
                        return None;
                    }
                }
            }
            evidence.push("stat");
        }
        // 那汉, 这厮, 一个妇人: a noun after a demonstrative or classifier.
        if st.ldem as f64 > 0.3 * n as f64 {
            return None;
        }
        if self.tag_of(w).is_some_and(|t| t != Tag::Person) {
            return None;
        }
        // Said once: only a strong cue will do (马扩也领着, 刘延庆兵马), and
        // not an ordinary word for a given name (谢|下楼, 戴|一顶).
        if n == 1 && st.strong == 0 && !emperor {
            return None;
        }
        if n <= 2
            && sur.is_some_and(|(sl, _)| sl == 1 && len == 3)
            && self.tag_of(w) != Some(Tag::Person)
        {
            let given: String = chars[1..].iter().collect();
            if self.is_plain_word(&given) && self.is_frequent_word(&given, 100) {
                return None;
            }
        }
        score += 0.35 * (cues as f64 / 2.0).min(1.0);
        score += 0.15 * ((n as f64 - 1.0) / 3.0).min(1.0);
        if st.nam > 0 {
            score += 0.1;
        }
        if n >= 2 && ld >= 2 && rd >= 2 {
            score += 0.1;
            if ld as u32 >= n.min(4) && rd as u32 >= n.min(4) {
                score += 0.05;
            }
            evidence.push("stat");
        }
        // Place cues (more than a stray one) speak against a person.
        score -= 0.5 * (st.place_cues().saturating_sub(1) as f64 / n as f64).min(1.0);
        for (code, v) in [
            ("say", st.say),
            ("act", st.act),
            ("cmd", st.cmd),
            ("ttl", st.title),
        ] {
            if v > 0 {
                evidence.push(code);
            }
        }
        let threshold = if sur.is_some() || emperor { 0.5 } else { 0.55 };
        (score + 1e-9 >= threshold).then(|| decided(w, EntityType::Person, score, &evidence, st))
    }

    fn place_score(&self, w: &str, chars: &[char], st: &Stat) -> Option<Decided> {
        let len = chars.len();
        if len > 5 {
            return None;
        }
        let n = st.count;
        let mut evidence: Vec<&'static str> = Vec::new();
        let mut score = 0.0;
        if let Some((slen, class, weight)) = self.place_suffix(w) {
            let stem: String = chars[..len - slen].iter().collect();
            let stem_chars = len - slen;
            if self.is_generic(&stem)
                || stem.chars().all(|c| self.numerals.contains(&c))
                || !self.stem_ok(&stem, true)
            {
                return None;
            }
            // 润州|海阳城: a stem does not start with a strong admin suffix.
            if stem_chars >= 2
                && self
                    .lex
                    .place_suffixes
                    .get(&chars[0].to_string())
                    .is_some_and(|p| p.class == PlaceClass::Admin && p.weight >= 3)
            {
                return None;
            }
            // X + a word that ends in the suffix character (山地丘陵, 两侧山崖).
            if stem_chars >= 2 {
                let last: String = chars[stem_chars - 1..stem_chars + 1].iter().collect();
                // (孤山口 is fine: 孤山 is a unit of its own.)
                let stem_is_word = self.vocab.has_word(&stem) || self.lex.places.contains(&stem);
                if !stem_is_word && (self.is_plain_word(&last) || self.is_generic(&last)) {
                    return None;
                }
            }
            // 贵县, 敝庄, 本寨: a polite or deictic word, not a stem.
            if stem_chars == 1 && "贵敝本该此其我你他尊寒".contains(chars[0]) {
                return None;
            }
            // 燕山|山脚: a suffix does not follow itself.
            if chars[stem_chars - 1] == chars[stem_chars] {
                return None;
            }
            // 伤一个寨: no function character inside a stem; 直去县, 奔城,
            // 柴上城: no verb, and no locative after the first character,
            // unless the stem is a known word (上京, 东平).
            if stem.chars().skip(1).any(|c| self.is_bnd(c)) {
                return None;
            }
            let stem_known = self.lex.places.contains(&stem)
                || matches!(
                    self.tag_of(&stem),
                    Some(Tag::Place | Tag::Person | Tag::Proper)
                );
            if !stem_known
                && stem.chars().enumerate().any(|(k, c)| {
                    self.verbish.contains(&c) && !self.numerals.contains(&c)
                        || (k > 0 && LOCATIVES.contains(c))
                })
            {
                return None;
            }
            // 刘知寨: the suffix ends a title, not a place name.
            let seam: String = chars[stem_chars - 1..].iter().collect();
            if stem_chars >= 1 && self.titles.contains_key(&seam) {
                return None;
            }
            let known_stem = self.lex.places.contains(&stem);
            // 点|起山寨: every mention starts inside a word with the character
            // before it, and no cue says otherwise.
            if !known_stem && st.lword == n && st.mov + st.nam + st.lpunct == 0 {
                return None;
            }
            // 军汉寨: an ordinary word + suffix, said once, is too weak.
            if !known_stem && n == 1 && stem_chars >= 2 && self.is_plain_word(&stem) {
                return None;
            }
            if known_stem && stem_chars >= 2 {
                // A known place + suffix: its town, pass or circuit (上京道).
                score += 0.6;
                evidence.push("lex");
            } else if weight <= 1 && class == PlaceClass::Admin {
                // 道, 路, 里, 所 …: too ambiguous without a known stem.
                return None;
            } else {
                let strong_admin = class == PlaceClass::Admin && weight >= 3;
                score += match (strong_admin, weight) {
                    (true, _) if stem_chars == 2 => 0.45,
                    (true, _) => 0.4,
                    (false, 3) => 0.3,
                    (false, 2) => 0.25,
                    _ => 0.1,
                };
            }
            if stem_chars == 1
                && (self.not_given.contains(&chars[0]) || LOCATIVES.contains(chars[0]))
            {
                // 去县, 到州: a verb is no stem.
                return None;
            }
            if stem_chars == 1 {
                // 山谷, 京城, 小河: a one-character stem that makes a common word.
                // A dictionary place name is fine (锦州, and 燕山 when movement
                // cues say so), unless its stem is itself a suffix (山口, 京城).
                let ns = self.tag_of(w) == Some(Tag::Place)
                    && !self.lex.place_suffixes.contains_key(&stem)
                    && (class == PlaceClass::Admin && weight >= 3 || st.place_cues() >= 2);
                if self.vocab.has_word(w) && !ns {
                    return None;
                }
            } else if self.is_plain_word(w) {
                return None;
            }
            evidence.push("sfx");
            if stem_chars >= 2 && st.lbad == 0 && st.rbad == 0 && n >= 2 {
                score += 0.1;
            }
            // A suffix and movement cues on a good share of the mentions:
            // a place even if people act there (梁山泊人马).
            if st.place_cues() as f64 >= 0.15 * n as f64 && n >= 3 {
                score += 0.1;
            }
        } else {
            // No suffix: movement and location cues only.
            let tag = self.tag_of(w);
            let strong = st.place_cues() >= 2 && n >= 2 && tag.is_none_or(|t| t == Tag::Place);
            let clause =
                st.mov_clause >= 1 && tag.is_some_and(|t| matches!(t, Tag::Place | Tag::Proper));
            if !(strong || clause) {
                return None;
            }
            if len > 4
                || chars.iter().any(|c| self.is_bnd(*c))
                || self.verbish.contains(&chars[0])
                || self.verbish.contains(&chars[len - 1])
                || self.cue(&chars[0].to_string(), CueClass::Adv) > 0
                || !self.stem_ok(w, false)
                || (0..len - 1).any(|a| {
                    (a + 2..=len).any(|b| {
                        let part: String = chars[a..b].iter().collect();
                        self.lex.address.contains(&part)
                    })
                })
            {
                return None;
            }
            // 厅上, 寨中: not a locative at the end; 冈子: not a suffix at the start.
            if LOCATIVES.contains(chars[len - 1])
                || self
                    .lex
                    .place_suffixes
                    .get(&chars[0].to_string())
                    .is_some_and(|p| p.weight >= 2)
            {
                return None;
            }
            if self.surname(chars, w).is_some() && st.person_cues() > 0 {
                return None;
            }
            // Cue-only places need cues on a good share of their mentions.
            if !clause && (st.place_cues() as f64) < 0.3 * n as f64 {
                return None;
            }
            evidence.push("stat");
            score += if clause { 0.25 } else { 0.15 };
        }
        let cues = st.place_cues();
        if st.nam > 0 {
            score += 0.1;
        }
        score += 0.3 * (cues as f64 / 2.0).min(1.0);
        if st.mov_clause > 0 {
            score += 0.1;
        }
        score += 0.1 * ((n as f64 - 1.0) / 3.0).min(1.0);
        let (ld, rd) = self.diversity(st);
        if n >= 2 && ld >= 2 && rd >= 2 {
            score += 0.1;
        }
        if len >= 3 && self.tag_of(w) == Some(Tag::Place) {
            score += 0.15;
        }
        score -= 0.2 * (st.person_cues() as f64 / n as f64).min(1.0);
        if st.mov > 0 {
            evidence.push("mov");
        }
        if st.loc > 0 {
            evidence.push("loc");
        }
        (score + 1e-9 >= 0.45).then(|| decided(w, EntityType::Place, score, &evidence, st))
    }

    /// Resolves accepted names that contain one another:
    /// - the shorter one lives (almost) only inside the longer: it goes
    ///   (耶律挞 inside 耶律挞烈, 德州 inside 安德州);
    /// - the longer one is the shorter plus context (距离锦州, 秦军掩): it
    ///   goes, unless it is the shorter plus a suffix (海阳 → 海阳城: one
    ///   place, merged as an alias).
    fn resolve_nested(&self, decided: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        let mut keep = vec![true; decided.len()];
        let mut order: Vec<usize> = (0..decided.len()).collect();
        order.sort_by(|&a, &b| {
            decided[b]
                .name
                .chars()
                .count()
                .cmp(&decided[a].name.chars().count())
                .then(a.cmp(&b))
        });
        // Which names hold which (one automaton over all names instead of
        // comparing every pair).
        let (containers, contained) = containment(&decided);
        let mut position = vec![0; decided.len()];
        for (x, &i) in order.iter().enumerate() {
            position[i] = x;
        }
        // Which place + next name (润州海阳城) the book has, for the suffix
        // rule below: looked up in one scan.
        let mut joined: BTreeSet<String> = BTreeSet::new();
        for (bi, b) in decided.iter().enumerate() {
            for &ai in &contained[bi] {
                let a = &decided[ai];
                if a.kind != EntityType::Place
                    || b.kind != EntityType::Place
                    || !b.name.starts_with(a.name.as_str())
                {
                    continue;
                }
                let rest = &b.name[a.name.len()..];
                for c in decided.iter() {
                    if c.name.len() > rest.len() && c.name.starts_with(rest) {
                        joined.insert(format!("{}{}", a.name, c.name));
                    }
                }
            }
        }
        let in_book = occurring(joined, runs);
        let mut alias_into: Vec<(usize, usize, bool)> = Vec::new();
        for (x, &bi) in order.iter().enumerate() {
            let mut inner: Vec<usize> = contained[bi]
                .iter()
                .copied()
                .filter(|&ai| position[ai] > x)
                .collect();
            inner.sort_by_key(|&ai| position[ai]);
            for ai in inner {
                let (a, b) = (&decided[ai], &decided[bi]);
                if !keep[ai] || !keep[bi] || a.name.len() >= b.name.len() {
                    continue;
                }
                if a.kind == EntityType::Faction || b.kind == EntityType::Faction {
                    continue;
                }
                // Mentions of A outside every accepted name that contains it.
                let inside: u32 = containers[ai]
                    .iter()
                    .filter(|&&k| keep[k])
                    .map(|&k| decided[k].count)
                    .sum();
                let outside = a.count as f64 - inside.max(b.count) as f64;
                let suffixed = b.name.starts_with(a.name.as_str()) && {
                    let rest = &b.name[a.name.len()..];
                    self.lex.place_suffixes.contains_key(rest)
                        || self.lex.army_suffixes.contains_key(rest)
                };
                // 智深 and 鲁智深: a given name used alone is the person.
                // (Not 付林冲: 林冲 has a surname of its own, so 付 is context.)
                let surname_plus = a.kind == EntityType::Person
                    && b.kind == EntityType::Person
                    && !a.evidence.contains("sur")
                    && b.name.ends_with(a.name.as_str())
                    && self
                        .surnames
                        .contains_key(&b.name[..b.name.len() - a.name.len()]);
                if outside <= 0.25 * a.count as f64 {
                    keep[ai] = false;
                } else if surname_plus {
                    alias_into.push((ai, bi, true));
                } else if suffixed && a.kind == EntityType::Place && b.kind == EntityType::Place {
                    // 润州 + 海 is no place when 海阳城 is: the "suffix" is
                    // the head of the next name (润州海阳城).
                    let rest = &b.name[a.name.len()..];
                    let straddles = decided.iter().enumerate().any(|(k, c)| {
                        keep[k]
                            && k != bi
                            && c.name.len() > rest.len()
                            && c.name.starts_with(rest)
                            && {
                                let joined = format!("{}{}", a.name, c.name);
                                in_book.contains(&joined)
                            }
                    });
                    if straddles {
                        keep[bi] = false;
                    } else {
                        alias_into.push((ai, bi, false));
                    }
                } else if !suffixed && (b.count as f64) < 0.34 * a.count as f64 {
                    // 距离锦州: the shorter name plus context, said rarely.
                    keep[bi] = false;
                }
            }
        }
        let mut decided = decided;
        for (ai, bi, longer_heads) in alias_into {
            if keep[ai] && keep[bi] {
                let (big, small) = if !longer_heads && decided[ai].count > decided[bi].count {
                    (ai, bi)
                } else {
                    (bi, ai)
                };
                let name = decided[small].name.clone();
                let ev: Vec<&'static str> = decided[small].evidence.iter().copied().collect();
                decided[big].aliases.insert(name);
                decided[big].evidence.extend(ev);
                decided[big].evidence.insert("alias");
                keep[small] = false;
            }
        }
        decided
            .into_iter()
            .zip(keep)
            .filter_map(|(d, k)| k.then_some(d))
            .collect()
    }

    /// Drops names every occurrence of which straddles a stronger name
    /// (住山 in 守住山海关: 山海关 is stronger). Stronger: from the lexicon,
    /// or more frequent, or a better score.
    fn drop_overlapped(&self, decided: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        if decided.is_empty() {
            return decided;
        }
        let Ok(ac) = aho_corasick::AhoCorasick::builder()
            .kind(Some(aho_corasick::AhoCorasickKind::DFA))
            .build(decided.iter().map(|d| d.name.as_str()))
        else {
            return decided;
        };
        let listed =
            |d: &Decided| self.lex.places.contains(&d.name) || self.lex.factions.contains(&d.name);
        let strength = |d: &Decided| (listed(d), d.count, (d.score * 1000.0) as i64);
        // Counted per slice of the book in parallel, then added up.
        let (straddled, seen) = runs
            .slices()
            .par_iter()
            .map(|part| {
                let mut straddled = vec![0u32; decided.len()];
                let mut seen = vec![0u32; decided.len()];
                for run in part.iter() {
                    let ms: Vec<(usize, usize, usize)> = ac
                        .find_overlapping_iter(run.text)
                        .map(|m| (m.start(), m.end(), m.pattern().as_usize()))
                        .collect();
                    for &(s1, e1, p1) in &ms {
                        seen[p1] += 1;
                        let crossed = ms.iter().any(|&(s2, e2, p2)| {
                            p2 != p1
                                && ((s2 < s1 && e2 > s1 && e2 < e1)
                                    || (s2 > s1 && s2 < e1 && e2 > e1))
                                && strength(&decided[p2]) > strength(&decided[p1])
                        });
                        if crossed {
                            straddled[p1] += 1;
                        }
                    }
                }
                (straddled, seen)
            })
            .reduce(
                || (vec![0; decided.len()], vec![0; decided.len()]),
                |(mut s1, mut n1), (s2, n2)| {
                    for (a, b) in s1.iter_mut().zip(s2) {
                        *a += b;
                    }
                    for (a, b) in n1.iter_mut().zip(n2) {
                        *a += b;
                    }
                    (s1, n1)
                },
            );
        decided
            .into_iter()
            .enumerate()
            .filter(|(i, _)| seen[*i] == 0 || straddled[*i] < seen[*i])
            .map(|(_, d)| d)
            .collect()
    }

    /// Coordination: in 润州或者迁州 and 乙室拔业兵马、刘延庆兵马, a string
    /// coordinated with an accepted entity, on the same footing (same
    /// following word or both whole items of a list), shares its type.
    fn add_coordinated(
        &self,
        mut decided: Vec<Decided>,
        runs: &Runs,
        m: &Measured,
    ) -> Vec<Decided> {
        const CONJ: [&str; 8] = ["或者", "乃至", "甚至", "以及", "与", "和", "及", "或"];
        let known: BTreeMap<&str, EntityType> = decided
            .iter()
            .filter(|d| matches!(d.kind, EntityType::Person | EntityType::Place))
            .map(|d| (d.name.as_str(), d.kind))
            .collect();
        let known_list: Vec<(&str, EntityType)> = known.iter().map(|(w, k)| (*w, *k)).collect();
        let Ok(known_ac) = aho_corasick::AhoCorasick::builder()
            .kind(Some(aho_corasick::AhoCorasickKind::DFA))
            .match_kind(aho_corasick::MatchKind::LeftmostLongest)
            .build(known_list.iter().map(|k| k.0))
        else {
            return decided;
        };
        // `tailed`: the items share a following word (X兵马、Y兵马), which
        // vouches for the boundary; otherwise a person needs a surname.
        let consider = |w: &str,
                        kind: EntityType,
                        tailed: bool,
                        found: &mut BTreeMap<String, (EntityType, u32)>| {
            if known.contains_key(w) || self.is_generic(w) {
                return;
            }
            // 宋清立 holds the known 宋清: a misread boundary, not a new name.
            if known.keys().any(|k| w.contains(k) || k.contains(w)) {
                return;
            }
            let chars: Vec<char> = w.chars().collect();
            if !(2..=4).contains(&chars.len())
                || chars
                    .iter()
                    .any(|c| self.is_bnd(*c) || self.not_given.contains(c))
                || self.vocab.has_word(w)
                || self.army_suffix(w).is_some()
            {
                return;
            }
            let ok = match kind {
                EntityType::Place => self.place_suffix(w).is_some_and(|(l, _, _)| {
                    let stem: String = chars[..chars.len() - l].iter().collect();
                    self.stem_ok(&stem, true)
                }),
                _ => {
                    self.stem_ok(w, false)
                        && (tailed
                            || self.surname(&chars, w).is_some_and(|(sl, sw)| {
                                sw >= 2 && (1..=2).contains(&(chars.len() - sl))
                            }))
                }
            };
            if ok {
                found.entry(w.to_string()).or_insert((kind, 0)).1 += 1;
            }
        };
        // Slices of the book in parallel; their finds are merged in book
        // order (the first type found for a string is kept).
        let parts: Vec<BTreeMap<String, (EntityType, u32)>> = runs
            .slice_ranges()
            .par_iter()
            .map(|range| {
                let mut found: BTreeMap<String, (EntityType, u32)> = BTreeMap::new();
                for ri in range.clone() {
                    let run = &runs[ri];
                    let n = run.len();
                    // Within a run: KNOWN conj X (润州或者迁州停留): X is the known's length ±1, ending before a
                    // cue or a place suffix match.
                    for m in known_ac.find_iter(run.text) {
                        let (name, kind) = known_list[m.pattern().as_usize()];
                        let Ok(ci) = run.off.binary_search(&(m.end() as u32)) else {
                            continue;
                        };
                        for conj in CONJ {
                            let cl = conj.chars().count();
                            if ci + cl >= n || run.sub(ci, ci + cl) != conj {
                                continue;
                            }
                            let s = ci + cl;
                            let name_len = name.chars().count();
                            for l in [name_len, name_len + 1, name_len.saturating_sub(1)] {
                                if l < 2 || s + l > n {
                                    continue;
                                }
                                let w = run.sub(s, s + l);
                                // The same kind of word: a place with the same class of suffix.
                                let same_shape = match kind {
                                    EntityType::Place => {
                                        self.place_suffix(w).map(|x| x.1)
                                            == self.place_suffix(name).map(|x| x.1)
                                    }
                                    _ => true,
                                };
                                let clean_end = s + l == n || self.is_bnd(run.ch(s + l)) || {
                                    let next = run.sub(s + l, (s + l + 2).min(n));
                                    self.vocab.has_word(next)
                                        || self.cue(run.sub(s + l, s + l + 1), CueClass::Act) > 0
                                };
                                if same_shape && clean_end {
                                    consider(w, kind, false, &mut found);
                                }
                            }
                        }
                    }
                    // Lists: runs joined by 、 whose items end the same way (X兵马、Y兵马).
                    if run.after == '、' && ri + 1 < runs.len() {
                        let mut items = vec![ri];
                        let mut k = ri;
                        while k + 1 < runs.len()
                            && runs[k].after == '、'
                            && runs[k + 1].chapter == run.chapter
                        {
                            k += 1;
                            items.push(k);
                        }
                        if ri > 0 && runs[ri - 1].after == '、' {
                            continue; // handled from the list's first item
                        }
                        // Common tail of the items (兵马).
                        let tails: Vec<&str> = items.iter().map(|&x| runs[x].text).collect();
                        for tail_len in [2usize, 0] {
                            let mut typed: Option<EntityType> = None;
                            let mut cands: Vec<&str> = Vec::new();
                            let mut agree = true;
                            for (idx, t) in tails.iter().enumerate() {
                                let r = &runs[items[idx]];
                                let rn = r.len();
                                if rn <= tail_len {
                                    agree = false;
                                    break;
                                }
                                if tail_len > 0
                                    && idx + 1 < tails.len()
                                    && r.sub(rn - tail_len, rn) != runs[items[idx + 1]].sub(0, 0)
                                {
                                    // tail compared below
                                }
                                let _ = t;
                                // The item is the whole run (minus the tail); for the last item, a known
                                // name at its start followed by the same tail.
                                let body = if idx + 1 < tails.len() || tail_len == 0 {
                                    if tail_len > 0
                                        && r.sub(rn - tail_len, rn)
                                            != runs[items[0]].sub(
                                                runs[items[0]].len() - tail_len,
                                                runs[items[0]].len(),
                                            )
                                    {
                                        agree = false;
                                        break;
                                    }
                                    r.sub(0, rn - tail_len)
                                } else {
                                    let first_tail = runs[items[0]]
                                        .sub(runs[items[0]].len() - tail_len, runs[items[0]].len());
                                    match r.text.find(first_tail) {
                                        Some(p) if p > 0 => &r.text[..p],
                                        _ => {
                                            agree = false;
                                            break;
                                        }
                                    }
                                };
                                if let Some(&kind) = known.get(body) {
                                    if typed.is_some_and(|t| t != kind) {
                                        agree = false;
                                        break;
                                    }
                                    typed = Some(kind);
                                } else {
                                    cands.push(body);
                                }
                            }
                            if !agree {
                                continue;
                            }
                            if let Some(kind) = typed {
                                let known_items = items.len() - cands.len();
                                if known_items >= 2 || (known_items >= 1 && tail_len > 0) {
                                    for c in cands {
                                        consider(c, kind, tail_len > 0, &mut found);
                                    }
                                }
                            }
                            break;
                        }
                    }
                }
                found
            })
            .collect();
        let mut found: BTreeMap<String, (EntityType, u32)> = BTreeMap::new();
        for part in parts {
            for (w, (kind, count)) in part {
                found.entry(w).or_insert((kind, 0)).1 += count;
            }
        }
        for (w, (kind, count)) in found {
            let st = m.stat(&w).cloned().unwrap_or(Stat {
                count,
                ..Stat::default()
            });
            let mut d = decided_owned(w, kind, 0.55, &["coord"], st.count.max(count));
            if kind == EntityType::Person
                && self
                    .surname(&d.name.chars().collect::<Vec<_>>(), &d.name)
                    .is_some()
            {
                d.evidence.insert("sur");
            }
            decided.push(d);
        }
        decided
    }

    /// Armies with the same stem are one army (契丹兵, 契丹骑兵, 契丹军);
    /// the most frequent form names it.
    fn merge_armies(&self, decided: Vec<Decided>) -> Vec<Decided> {
        let mut groups: BTreeMap<String, Vec<Decided>> = BTreeMap::new();
        for d in decided {
            let stem = match self.army_suffix(&d.name) {
                Some((l, _)) => d.name.chars().take(d.name.chars().count() - l).collect(),
                None => d.name.clone(),
            };
            // 契丹骑兵 and 契丹败兵 share the stem 契丹 (骑兵, 败兵 are suffixes).
            groups.entry(stem).or_default().push(d);
        }
        let mut out = Vec::new();
        for (_, mut g) in groups {
            g.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.name.cmp(&b.name)));
            let mut head = g.remove(0);
            for other in g {
                head.aliases.insert(other.name);
                head.aliases.extend(other.aliases);
                head.evidence.extend(other.evidence);
                head.count += other.count;
                head.score = head.score.max(other.score);
            }
            out.push(head);
        }
        out
    }

    /// Single-character factions with polity evidence: an army stem (秦军),
    /// an X人 form listed in the lexicon (金人), a polity context (伐燕,
    /// 入宋) or a run of them (宋金辽元).
    fn add_factions(&self, mut decided: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        let mut found: BTreeMap<String, (BTreeSet<String>, u32)> = BTreeMap::new();
        for d in &decided {
            if d.kind != EntityType::Army {
                continue;
            }
            for name in std::iter::once(&d.name).chain(d.aliases.iter()) {
                if let Some((l, _)) = self.army_suffix(name) {
                    let stem: String = name.chars().take(name.chars().count() - l).collect();
                    if self.factions_1.contains(&stem) {
                        found.entry(stem).or_default().1 += 2;
                    }
                }
            }
        }
        const BEFORE: [&str; 9] = ["伐", "入", "侵", "降", "抗", "灭", "攻", "联", "投"];
        let named: Vec<String> = decided
            .iter()
            .filter(|d| matches!(d.kind, EntityType::Person | EntityType::Place))
            .map(|d| d.name.clone())
            .collect();
        // Slices of the book in parallel; counts add up, aliases unite.
        type Found = BTreeMap<String, (BTreeSet<String>, u32)>;
        let parts: Vec<Found> = runs
            .slices()
            .par_iter()
            .map(|part| {
                let mut found = Found::new();
                for run in part.iter() {
                    let n = run.len();
                    for i in 0..n {
                        let c = run.sub(i, i + 1);
                        if !self.factions_1.contains(c) {
                            continue;
                        }
                        let prev = if i > 0 { run.sub(i - 1, i) } else { "" };
                        let next = if i + 1 < n { run.sub(i + 1, i + 2) } else { "" };
                        // 伐燕失利: the polity stands alone after the verb.
                        let alone_after = i + 1 == n
                            || self.is_bnd(run.ch(i + 1))
                            || !self.vocab.has_word(run.sub(i, (i + 2).min(n)));
                        let polity_before = BEFORE.contains(&prev)
                            && !self.vocab.has_word(run.sub(i - 1, i + 1))
                            && alone_after;
                        // 金人, but not 好汉人: the X人 form is listed and X is no word's tail.
                        let people = next == "人"
                            && self.lex.factions.contains(run.sub(i, i + 2))
                            && !(i > 0 && self.vocab.has_word(run.sub(i - 1, i + 1)));
                        // 宋金辽元四朝: three or more different polities in a row.
                        let mut a = i;
                        while a > 0 && self.factions_1.contains(run.sub(a - 1, a)) {
                            a -= 1;
                        }
                        let mut b = i + 1;
                        while b < n && self.factions_1.contains(run.sub(b, b + 1)) {
                            b += 1;
                        }
                        let distinct: BTreeSet<char> = (a..b).map(|k| run.ch(k)).collect();
                        let span = run.sub(a, b);
                        // 秦明越 is 秦明 and 越: no list through an accepted name.
                        let list = b - a >= 3
                            && distinct.len() == b - a
                            && !named
                                .iter()
                                .any(|w| span.contains(w.as_str()) || w.contains(span));
                        // 宋金辽元四朝: a counted list of dynasties or states.
                        let counted = list
                            && b + 1 < n
                            && self.numerals.contains(&run.ch(b))
                            && matches!(run.ch(b + 1), '朝' | '国');
                        if polity_before || people || list {
                            let e = found.entry(c.to_string()).or_default();
                            e.1 += if people || counted { 2 } else { 1 };
                            if people {
                                e.0.insert(run.sub(i, i + 2).to_string());
                            }
                        }
                    }
                }
                found
            })
            .collect();
        for part in parts {
            for (name, (aliases, count)) in part {
                let e = found.entry(name).or_default();
                e.0.extend(aliases);
                e.1 += count;
            }
        }
        for (name, (aliases, count)) in found {
            // One polity context alone (伐燕) is not enough.
            if count < 2 || decided.iter().any(|d| d.name == name) {
                continue;
            }
            decided.push(Decided {
                name,
                kind: EntityType::Faction,
                score: 0.5 + 0.1 * (count as f64).min(4.0),
                evidence: ["lex", "poly"].into_iter().collect(),
                aliases,
                count,
            });
        }
        decided
    }

    /// Aliases from the lexicon's alias lists and from courtesy names
    /// stated in the text (董卓字仲颖, 刘备，字玄德).
    fn add_aliases(&self, mut decided: Vec<Decided>, runs: &[Run], m: &Measured) -> Vec<Decided> {
        // Alias lists: every decided name of one line joins the canonical.
        for (line, (canonical, aliases)) in self.lex.aliases.iter().enumerate() {
            // A built-in line (孔明 → 诸葛亮) applies only to a book that
            // names the canonical entity; the user's lines always apply.
            if line < self.lex.builtin_aliases && m.count(canonical) == 0 {
                continue;
            }
            let names: Vec<&str> = std::iter::once(canonical.as_str())
                .chain(aliases.iter().map(String::as_str))
                .collect();
            let hits: Vec<usize> = decided
                .iter()
                .enumerate()
                .filter(|(_, d)| names.contains(&d.name.as_str()))
                .map(|(i, _)| i)
                .collect();
            let Some(&first) = hits.first() else {
                continue;
            };
            let head = hits
                .iter()
                .copied()
                .find(|&i| decided[i].name == *canonical)
                .unwrap_or(first);
            let mut merged: Vec<Decided> = Vec::new();
            for &i in hits.iter().rev() {
                if i != head {
                    merged.push(decided[i].clone());
                }
            }
            let head_name = decided[head].name.clone();
            {
                let h = &mut decided[head];
                for other in merged {
                    h.aliases.insert(other.name);
                    h.aliases.extend(other.aliases);
                    h.count += other.count;
                }
                for a in &names {
                    if *a != head_name {
                        h.aliases.insert(a.to_string());
                    }
                }
                h.evidence.insert("alias");
            }
            let mut i = 0;
            decided.retain(|_| {
                let keep = i == head || !hits.contains(&i);
                i += 1;
                keep
            });
        }
        // Courtesy names: 董卓字仲颖, 刘备，字玄德, 林冲表字….
        let persons: BTreeSet<String> = decided
            .iter()
            .filter(|d| d.kind == EntityType::Person)
            .map(|d| d.name.clone())
            .collect();
        let mut zi: Vec<(String, String)> = Vec::new();
        for (ri, run) in runs.iter().enumerate() {
            let n = run.len();
            for k in 0..n {
                if run.ch(k) != '字' {
                    continue;
                }
                let mut start = k + 1;
                if start < n && run.ch(start) == '曰' {
                    start += 1;
                }
                if start + 2 > n {
                    continue;
                }
                let courtesy = run.sub(start, start + 2);
                if courtesy.chars().any(|c| self.is_bnd(c)) {
                    continue;
                }
                let name_end = if k >= 1 && run.ch(k - 1) == '表' {
                    k - 1
                } else {
                    k
                };
                let mut owner = None;
                if name_end == 0 {
                    if ri > 0
                        && runs[ri - 1].chapter == run.chapter
                        && matches!(run.before, '，' | ',')
                    {
                        let prev = &runs[ri - 1];
                        let pn = prev.len();
                        for l in 2..=4usize.min(pn) {
                            if persons.contains(prev.sub(pn - l, pn)) {
                                owner = Some(prev.sub(pn - l, pn).to_string());
                            }
                        }
                    }
                } else {
                    for l in 2..=4usize.min(name_end) {
                        if persons.contains(run.sub(name_end - l, name_end)) {
                            owner = Some(run.sub(name_end - l, name_end).to_string());
                        }
                    }
                }
                if let Some(p) = owner {
                    zi.push((p, courtesy.to_string()));
                }
            }
        }
        zi.sort();
        zi.dedup();
        for (owner, courtesy) in zi {
            if owner == courtesy {
                continue;
            }
            let Some(p) = decided.iter().position(|d| d.name == owner) else {
                continue;
            };
            decided[p].aliases.insert(courtesy.clone());
            decided[p].evidence.insert("zi");
            // A separately decided entity of that name is the same person;
            // so is surname + courtesy name (宋公明 for 宋江, 字公明).
            let surname: String = owner.chars().take(1).collect();
            let joined = format!("{surname}{courtesy}");
            for name in [courtesy.clone(), joined] {
                if let Some(j) = decided
                    .iter()
                    .position(|d| d.name == name && d.kind == EntityType::Person)
                {
                    if decided[j].name != owner {
                        let other = decided.remove(j);
                        let p = decided
                            .iter()
                            .position(|d| d.name == owner)
                            .expect("owner kept");
                        decided[p].aliases.insert(other.name);
                        decided[p].aliases.extend(other.aliases);
                        decided[p].count += other.count;
                    }
                }
            }
        }
        decided
    }

    /// Why a string was or was not catalogued: its statistics and the
    /// decision. For debugging dictionaries and rules.
    #[doc(hidden)]
    pub fn explain(&self, chapters: &[&str], word: &str) -> String {
        let store = corpus::RunStore::new(chapters);
        let runs = store.runs();
        let m = self.measure(&runs, true);
        let mut out = String::new();
        match m.stat(word) {
            Some(st) => {
                out.push_str(&format!("{word}: {st:?}\n"));
                out.push_str(&format!("  judge: {:?}\n", self.judge(word, st)));
                let chars: Vec<char> = word.chars().collect();
                out.push_str(&format!(
                    "  person: {:?}\n",
                    self.person_score(word, &chars, st)
                ));
                out.push_str(&format!(
                    "  place: {:?}\n",
                    self.place_score(word, &chars, st)
                ));
                out.push_str(&format!(
                    "  army: {:?}\n",
                    self.judge_army(word, st, &m, &HashSet::new())
                ));
                out.push_str(&format!("  cohesion: {:.2}\n", self.cohesion(word, &m)));
            }
            None => out.push_str(&format!("{word}: not proposed\n")),
        }
        let decided = self.decide(&runs, &m);
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

/// Prints the time since `start` when `ZHNOVEL_PROFILE` is set (as
/// `benches/profile.rs` does): where discovery spends its time.
fn phase(start: Instant, name: &str) {
    static ON: OnceLock<bool> = OnceLock::new();
    if *ON.get_or_init(|| std::env::var_os("ZHNOVEL_PROFILE").is_some()) {
        eprintln!("    {name:<28} {:>8.3} s", start.elapsed().as_secs_f64());
    }
}

/// The strings of `strings` that occur in the book (runs scanned in parallel).
fn occurring(strings: BTreeSet<String>, runs: &Runs) -> BTreeSet<String> {
    if strings.is_empty() {
        return strings;
    }
    let strings: Vec<String> = strings.into_iter().collect();
    let Ok(ac) = aho_corasick::AhoCorasick::new(&strings) else {
        return BTreeSet::new();
    };
    let found: Vec<bool> = runs
        .slices()
        .par_iter()
        .map(|part| {
            let mut found = vec![false; strings.len()];
            for run in part.iter() {
                for m in ac.find_overlapping_iter(run.text) {
                    found[m.pattern().as_usize()] = true;
                }
            }
            found
        })
        .reduce(
            || vec![false; strings.len()],
            |a, b| a.iter().zip(&b).map(|(x, y)| *x || *y).collect(),
        );
    strings
        .into_iter()
        .zip(found)
        .filter_map(|(s, f)| f.then_some(s))
        .collect()
}

/// For each decided name, the longer names that contain it (`containers`)
/// and the shorter names it contains (`contained`), each listed once.
fn containment(decided: &[Decided]) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let mut containers = vec![Vec::new(); decided.len()];
    let mut contained = vec![Vec::new(); decided.len()];
    let Ok(ac) = aho_corasick::AhoCorasick::new(decided.iter().map(|d| d.name.as_str())) else {
        return (containers, contained);
    };
    for (b, d) in decided.iter().enumerate() {
        let mut inner: Vec<usize> = ac
            .find_overlapping_iter(d.name.as_str())
            .map(|m| m.pattern().as_usize())
            .filter(|&a| decided[a].name.len() < d.name.len())
            .collect();
        inner.sort_unstable();
        inner.dedup();
        for &a in &inner {
            containers[a].push(b);
        }
        contained[b] = inner;
    }
    (containers, contained)
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

/// The learned model's smallest probability for a person or a place.
const MODEL_THRESHOLD: f32 = 0.5;

/// The model shipped in `model/entity-model.tsv`.
fn builtin_model() -> Model {
    Model::parse(model::BUILTIN, &FEATURES).expect("the built-in model matches the features")
}

/// A rule verdict as (person score, place score), 0 for a type not chosen.
fn rule_scores(d: &Option<Decided>) -> (f64, f64) {
    match d {
        Some(d) if d.kind == EntityType::Person => (d.score, 0.0),
        Some(d) if d.kind == EntityType::Place => (0.0, d.score),
        _ => (0.0, 0.0),
    }
}

fn decided(w: &str, kind: EntityType, score: f64, evidence: &[&'static str], st: &Stat) -> Decided {
    decided_owned(w.to_string(), kind, score, evidence, st.count)
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

    /// (rule, text, names it must find with their type, strings it must not find).
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
            "榆关守军不过三千。南军缺马，岳家军却有精骑。神武军骑兵三万，神武军前锋已到，神武军势大。",
            &[(Army, "榆关守军"), (Army, "南军"), (Army, "岳家军"), (Army, "神武军")],
            &["神武军骑兵", "精骑"],
        ),
        (
            "generic nouns and titles are never entities",
            "丞相道：“主公，二人已至中军大营，伏兵四起。”大王大怒，令众将速回大营。",
            &[],
            &["丞相", "主公", "二人", "中军", "大营", "伏兵", "大王", "众将"],
        ),
        (
            "a list of troops names its commanders",
            "而关内，乙室拔业兵马、刘延庆兵马、郭药师兵马早已在此准备。",
            &[(Person, "刘延庆"), (Person, "郭药师"), (Person, "乙室拔业")],
            &["兵马"],
        ),
        (
            "a reign name + 帝 said twice is a person",
            "天祚帝先逃，背后追兵甚急。天祚帝见状忧愁不已。",
            &[(Person, "天祚帝")],
            &["祚帝"],
        ),
    ];

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
