//! Forms: names that are another way of naming an entity already decided.
//!
//! - A surname + title form (柯爷, 苏五弟, 柯元帅: a surname, perhaps a
//!   birth-order numeral, then an honorific from `dict/honorifics.txt` or a
//!   `post`/`both` title of `dict/titles.txt`) is bound to the one full name
//!   with that surname it refers to. Which one is learned from the book:
//!   each chapter lends the form's mentions to the full names with that
//!   surname in proportion to how often that chapter names them (by name
//!   or by an alias: an epithet says its person's chapters); the form is
//!   bound when one person takes at least `FORM_SHARE` of them and twice as
//!   many as the next. Otherwise (柯公子 for two sons) it stays apart. A
//!   form with an official title (柯元帅, 王都尉) also needs the title
//!   written with the full name somewhere in the book (元帅柯峻), or one
//!   person to take `DOMINANT_SHARE` of its mentions and be named near
//!   `NEAR_SHARE` of them, unless the title is
//!   one of a `family` member (柯夫人, 柯公子: the wife and son share the
//!   chapters of the man). A surname our list lacks counts too: the first
//!   character of a two- or three-character name, when the book also has
//!   it with a title.
//! - An epithet written right before one full name (北刀韩千山, 武威王X)
//!   is that person's (`bind_epithets`).
//! - A birth-order form right before a person's name (六郎北辰) is that
//!   person's (`bind_birth_order`).
//! - A person named with the faction first (燕铁衣) is the person the rest
//!   names (`bind_faction_prefixed`).
//! - A faction named as 大X, X朝, X国 or X邦 is the faction X when X is one.

use super::{class_index, decided, Decided, Measured, NameParts, Recognizer};
use crate::entity::corpus::{BookMatcher, Run, Runs};
use crate::entity::lexicon::CueClass;
use crate::entity::EntityType;
use crate::hash::FxMap;
use aho_corasick::MatchKind;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// Share of a form's attributed mentions that must go to one person to
/// bind it.
const FORM_SHARE: f64 = 0.5;

/// Share of a form's mentions enough for the one person the book writes
/// with the form's official title (the form's sons and servants share its
/// chapters: 柯元帅 and 柯岩, 石太守 and 石忠).
const HOLDER_SHARE: f64 = 0.2;

/// Share of a form's attributed mentions that binds an official title
/// nobody is written with to one person.
const DOMINANT_SHARE: f64 = 0.8;

/// How near (in bytes of Han text, about 200 characters) a form's
/// mention must be to the person's full name to count as near it.
const NEAR_BYTES: usize = 600;

/// Share of a form's mentions that must be near the full name for an
/// official title nobody is written with: a chapter's other 王 who is
/// never named in full (王都尉 in a chapter about 王进) is said far from
/// 王进.
const NEAR_SHARE: f64 = 0.4;

/// Times a candidate surname + title form no rule took must be said to
/// be bound (`add_form_candidates`).
const FORM_CANDIDATE_MIN: u32 = 2;

/// The evidence code of a candidate form not bound yet.
pub(super) const UNBOUND_FORM: &str = "unbound";

/// Times a form of address (老韩) or nickname (阿彪) must be said with
/// clean edges to be a person (`add_address_forms`).
const ADDRESS_MIN: u32 = 3;

/// The evidence code of a form of address (老韩, 小刘).
pub(super) const ADDRESS_FORM: &str = "addr";

/// Longest cue read around a form of address, in characters.
const MAX_CUE_LEN: usize = 3;

/// Longest title looked for after a form of address (都指挥使).
const MAX_TITLE_LEN: usize = 6;

/// Times an epithet must stand right before its person's full name.
const EPITHET_MIN: u32 = 3;

/// Share of a form's mentions that must fall in chapters naming one of the
/// people it could be, for the shares to tell anything.
const MIN_ATTRIBUTED: f64 = 0.25;

/// Titles that name a man's relative rather than the man (宋太公 is 宋江's
/// father, 武大郎 武松's elder brother, 钟母 钟's mother): a form with them
/// is never bound, and is no full name either.
const RELATIVE_TITLES: [&str; 3] = ["太公", "郎", "母"];

impl Recognizer {
    /// Whether `rest` (what follows a surname) is a title form.
    fn is_title_rest(&self, rest: &[char]) -> bool {
        let is_title = |cs: &[char]| {
            let s: String = cs.iter().collect();
            !s.is_empty()
                && !RELATIVE_TITLES.iter().any(|t| s.ends_with(t))
                && (self.lex.honorifics.contains(&s)
                    || self.titles.get(&s).is_some_and(|p| p.after_name()))
        };
        is_title(rest)
            || (rest.len() >= 2
                && self.chars.birth_order.contains(&rest[0])
                && is_title(&rest[1..]))
    }

    /// The surname + title forms no person was bound to (`UNBOUND_FORM`)
    /// go; but in a chapter-sized text (`short`) one whose surname no
    /// decided person bears names someone the book names elsewhere (a
    /// chapter that says only 柯先生): it is a person of its own, evidence
    /// `form`; not a word of jieba's dictionary (后生, 师叔, 诸侯) nor a rare
    /// surname's (那老). Where a person of that surname is decided (柯北辰
    /// beside 柯将军), the form may name another of the house, and goes.
    pub(super) fn settle_unbound_forms(&self, mut all: Vec<Decided>, short: bool) -> Vec<Decided> {
        // The surname `w` starts with, and its weight.
        let surname_of = |w: &str| -> Option<(String, u8)> {
            let chars: Vec<char> = w.chars().collect();
            self.surname(&chars, w)
                .filter(|&(sl, _)| sl < chars.len())
                .map(|(sl, weight)| (chars[..sl].iter().collect(), weight))
        };
        let named: std::collections::HashSet<String> = all
            .iter()
            .filter(|d| d.kind == EntityType::Person && !d.evidence.contains(UNBOUND_FORM))
            .filter_map(|d| surname_of(&d.name).map(|(surname, _)| surname))
            .collect();
        all.retain_mut(|d| {
            if !d.evidence.contains(UNBOUND_FORM) {
                return true;
            }
            let unnamed = short
                && !self.vocab.has_word(&d.name)
                && surname_of(&d.name)
                    .is_some_and(|(surname, weight)| weight >= 2 && !named.contains(&surname));
            if unnamed {
                d.evidence.remove(UNBOUND_FORM);
                d.evidence.insert("form");
            }
            unnamed
        });
        all
    }

    /// Adds the candidates that are a surname + title form (韩团长, 石营长),
    /// said at least `FORM_CANDIDATE_MIN` times, that nothing decided yet,
    /// as persons marked `UNBOUND_FORM`: `bind_title_forms` may bind them
    /// to their person; those it does not are dropped afterwards.
    pub(super) fn add_form_candidates(
        &self,
        mut all: Vec<Decided>,
        m: &Measured,
        runs: &Runs,
    ) -> Vec<Decided> {
        let known: std::collections::HashSet<&str> = all.iter().map(|d| d.name.as_str()).collect();
        let mut forms: Vec<Decided> = m
            .words
            .iter()
            .zip(&m.stats)
            .filter(|(w, st)| {
                !st.aux
                    && st.count >= FORM_CANDIDATE_MIN
                    && !known.contains(**w)
                    // mostly clean edges (石老|虎 is no 石老)
                    && 2 * (st.left_bad + st.right_bad) < st.count
            })
            .filter(|(w, _)| {
                let chars: Vec<char> = w.chars().collect();
                self.surname(&chars, w)
                    .is_some_and(|(sl, _)| sl < chars.len() && self.is_title_rest(&chars[sl..]))
            })
            .map(|(w, st)| decided(w, EntityType::Person, 0.5, &[UNBOUND_FORM], st))
            .collect();
        if forms.is_empty() {
            return all;
        }
        // The title is the start of a longer word at most of the form's
        // occurrences (楚老爷|子: 老爷子, an old man of the house), or its
        // surname the end of a decided name (百花谷|谷主): no form.
        let ac = runs.matcher(
            forms.iter().map(|d| d.name.as_str()),
            MatchKind::LeftmostLongest,
        );
        // Decided names that end with a form's surname (百花谷 before
        // 谷谷主): where the text says one of them, the form starts inside it.
        let ends_with: Vec<Vec<&str>> = forms
            .iter()
            .map(|f| {
                let first = f.name.chars().next().expect("a name");
                all.iter()
                    .filter(|d| d.name.chars().count() >= 2 && d.name.ends_with(first))
                    .map(|d| d.name.as_str())
                    .collect()
            })
            .collect();
        let mut glued = vec![(0u32, 0u32); forms.len()];
        for hit in runs.find_all(&ac) {
            let run = runs.at(hit.run as usize);
            let (start, end) = (hit.start as usize, hit.end as usize);
            let k = hit.pattern as usize;
            glued[k].0 += 1;
            let first_len = forms[k].name.chars().next().map_or(0, char::len_utf8);
            let upto = &run.text[..start + first_len];
            if ends_with[k].iter().any(|n| upto.ends_with(n)) {
                glued[k].1 += 1;
                continue;
            }
            let Some(next) = run.text[end..].chars().next() else {
                continue;
            };
            let name: Vec<char> = forms[k].name.chars().collect();
            let sl = self.surname(&name, &forms[k].name).map_or(1, |s| s.0);
            let longer: String = name[sl..].iter().chain(std::iter::once(&next)).collect();
            glued[k].1 += u32::from(self.vocab.has_word(&longer));
        }
        let mut k = 0;
        forms.retain(|_| {
            let (seen, in_word) = glued[k];
            k += 1;
            2 * in_word < seen.max(1)
        });
        all.extend(forms);
        all
    }

    /// Occurrences of strings no candidate rule proposes, over the book's
    /// slices in parallel: per string, (all, clean, as a person, after
    /// movement) by `name_context`, in sorted order. `find` reports each
    /// occurrence in a run as (start, end, clean), clean when no word runs
    /// across its edges.
    pub(super) fn tally_contexts<'a, F>(
        &self,
        runs: &Runs<'a>,
        find: F,
    ) -> BTreeMap<&'a str, [u32; 4]>
    where
        F: Fn(&Run<'a>, &mut dyn FnMut(usize, usize, bool)) + Sync,
    {
        let parts: Vec<FxMap<&'a str, [u32; 4]>> = runs
            .slices()
            .par_iter()
            .map(|part| {
                let mut seen: FxMap<&'a str, [u32; 4]> = FxMap::default();
                for run in part.iter() {
                    find(&run, &mut |a, b, clean| {
                        let tally = seen.entry(run.sub(a, b)).or_default();
                        tally[0] += 1;
                        if clean {
                            let (person, moved) = self.name_context(&run, a, b);
                            tally[1] += 1;
                            tally[2] += u32::from(person);
                            tally[3] += u32::from(moved);
                        }
                    });
                }
                seen
            })
            .collect();
        let mut sum: BTreeMap<&str, [u32; 4]> = BTreeMap::new();
        for part in parts {
            for (w, t) in part {
                let s = sum.entry(w).or_default();
                for (s, t) in s.iter_mut().zip(t) {
                    *s += t;
                }
            }
        }
        sum
    }

    /// How a string at characters `i..j` of a run is used: as a person (a
    /// speech or action cue after it; a command cue, a pronoun or a title
    /// before it: 我老赵, 团长老韩; or called: “老韩，…), and after a
    /// movement cue (进小庄). For the names no candidate rule proposes,
    /// which have no statistics of their own.
    pub(super) fn name_context(&self, run: &Run, i: usize, j: usize) -> (bool, bool) {
        let n = run.len();
        let is_cue = |s: &str, class| self.cues.get(s).is_some_and(|c| c[class_index(class)] > 0);
        let after = |class| {
            (1..=MAX_CUE_LEN)
                .filter(|len| j + len <= n)
                .any(|len| is_cue(run.sub(j, j + len), class))
        };
        let before = |class| (1..=MAX_CUE_LEN.min(i)).any(|len| is_cue(run.sub(i - len, i), class));
        let pronoun_before = i > 0 && self.chars.pronoun.contains(&run.ch(i - 1));
        let vocative = i == 0 && j == n && run.before == '“';
        let title_before =
            (1..=MAX_CUE_LEN.min(i)).any(|len| self.titles.contains_key(run.sub(i - len, i)));
        // X睁着, X笑了: a verb of one character and an aspect particle
        // after it, the plain verbs no cue list holds.
        let verb_aspect = j + 1 < n
            && self.chars.aspect.contains(&run.ch(j + 1))
            && !self.is_function_char(run.ch(j));
        let person = after(CueClass::Speech)
            || after(CueClass::Action)
            || verb_aspect
            || before(CueClass::Command)
            || pronoun_before
            || vocative
            || title_before;
        (person, before(CueClass::Movement))
    }

    /// Forms of address the learned model never sees (its books are
    /// classical): 老 or 小 + a surname (老韩, 小刘; class `address_prefix`
    /// of dict/chars.tsv), a person marked `ADDRESS_FORM` that
    /// `bind_title_forms` binds to the one person of that surname it names,
    /// else a person of its own (老孙, never named in full); and 阿 + one
    /// character (阿彪; `nickname_prefix`), a nickname, not a relative
    /// (阿叔: class `kin`). Counted only where no word runs across either
    /// edge (古老|, 老百姓, 小王子) and no title follows (小韩王); kept when
    /// said `ADDRESS_MIN` times so, mostly so, and a third of those as a
    /// person (`name_context`: 我老赵, “老韩，…) more often than after a
    /// movement cue (进小庄). A form jieba lists as a common word (老张 n,
    /// 老周 t) is one all the same, unless the book also uses it as a noun,
    /// after a demonstrative or classifier (那小童, 一个小童).
    pub(super) fn add_address_forms(&self, mut all: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        let known = NameParts::new(
            all.iter()
                .flat_map(|d| std::iter::once(&d.name).chain(d.aliases.iter()))
                .map(String::as_str),
        );
        // A title or honorific starts at character `i` (小韩王).
        let titled = |run: &Run, i: usize| {
            (i + 1..=(i + MAX_TITLE_LEN).min(run.len())).any(|j| {
                let t = run.sub(i, j);
                self.titles.contains_key(t) || self.lex.honorifics.contains(t)
            })
        };
        let seen = self.tally_contexts(runs, |run, report| {
            let n = run.len();
            for i in 0..n.saturating_sub(1) {
                let (p, x) = (run.ch(i), run.ch(i + 1));
                let address = self.chars.address_prefix.contains(&p)
                    && self
                        .lex
                        .surnames
                        .get(x.encode_utf8(&mut [0; 4]) as &str)
                        .is_some_and(|&w| w >= 2);
                let nickname = self.chars.nickname_prefix.contains(&p)
                    && !self.chars.kin.contains(&x)
                    && !self.numerals.contains(&x)
                    && !self.chars.pronoun.contains(&x);
                if !(address || nickname) || self.is_function_char(x) {
                    continue;
                }
                let word_left = i > 0 && self.vocab.has_word(run.sub(i - 1, i + 1));
                let word_right = (2..=4)
                    .filter(|len| i + 1 + len <= n)
                    .any(|len| self.vocab.has_word(run.sub(i + 1, i + 1 + len)))
                    || (3..=4)
                        .filter(|len| i + len <= n)
                        .any(|len| self.vocab.has_word(run.sub(i, i + len)));
                report(i, i + 2, !(word_left || word_right || titled(run, i + 2)));
            }
        });
        let mut found: Vec<Decided> = Vec::new();
        for (w, [total, clean, person, moved]) in seen {
            let w = w.to_string();
            if clean < ADDRESS_MIN
                || 2 * clean <= total
                || 3 * person < clean
                || person <= moved
                || known.in_one(&w)
                || self.is_generic(&w)
            {
                continue;
            }
            let nickname = w.starts_with(|c| self.chars.nickname_prefix.contains(&c));
            found.push(Decided {
                name: w,
                kind: EntityType::Person,
                score: 0.5,
                evidence: std::iter::once(if nickname { "nick" } else { ADDRESS_FORM }).collect(),
                aliases: BTreeSet::new(),
                count: total,
            });
        }
        let nouns = self.said_as_nouns(&found, runs);
        all.extend(found.into_iter().filter(|d| !nouns.contains(&d.name)));
        all
    }

    /// The found forms that are common words of jieba's dictionary and that
    /// the book says after a demonstrative or classifier (那小童, 一个小童)
    /// at least a tenth of the time: nouns, not names.
    fn said_as_nouns(&self, found: &[Decided], runs: &Runs) -> BTreeSet<String> {
        let words: Vec<&Decided> = found
            .iter()
            .filter(|d| self.is_plain_word(&d.name))
            .collect();
        if words.is_empty() {
            return BTreeSet::new();
        }
        let ac = runs.matcher(
            words.iter().map(|d| d.name.as_str()),
            MatchKind::LeftmostLongest,
        );
        let mut as_noun = vec![0u32; words.len()];
        for hit in runs.find_all(&ac) {
            let run = runs.at(hit.run as usize);
            let before = run.text[..hit.start as usize].chars().next_back();
            if before.is_some_and(|c| self.chars.demonstrative.contains(&c)) {
                as_noun[hit.pattern as usize] += 1;
            }
        }
        words
            .iter()
            .zip(as_noun)
            .filter(|(d, n)| 10 * n >= d.count && *n > 0)
            .map(|(d, _)| d.name.clone())
            .collect()
    }

    /// Epithets the text introduces (石敢当是一营营长，人称石老虎): the
    /// string after a word of dict/epithet_words.txt, to the end of its
    /// clause (after 为/做/是, 人称他为X), two to four characters, is the
    /// alias of the last person named before it in the same sentence, or
    /// when nobody was named yet, of the first named after it there.
    /// An epithet introduced for two people, already someone's alias, a
    /// generic word, or the name of a place, army or faction is left alone;
    /// a person before 的 or 之 is not the one introduced.
    pub(super) fn bind_introduced_epithets(
        &self,
        mut decided: Vec<Decided>,
        runs: &Runs,
    ) -> Vec<Decided> {
        let persons: Vec<usize> = (0..decided.len())
            .filter(|&i| decided[i].kind == EntityType::Person)
            .collect();
        if persons.is_empty() || self.lex.epithet_words.is_empty() {
            return decided;
        }
        let (names, owner) = said_by(&decided, &persons, |_| true, runs);
        let cues = runs.matcher(
            self.lex.epithet_words.iter().map(String::as_str),
            MatchKind::LeftmostLongest,
        );
        // epithet → the people it is introduced for
        let mut introduced: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
        // The last person named in the sentence so far.
        let mut last: Option<usize> = None;
        // Epithets the sentence introduced before naming anyone.
        let mut pending: Vec<String> = Vec::new();
        let mut chapter = usize::MAX;
        let (name_hits, cue_hits) = (runs.find_all(&names), runs.find_all(&cues));
        let (mut name_hits, mut cue_hits) =
            (name_hits.iter().peekable(), cue_hits.iter().peekable());
        for (r, run) in runs.iter().enumerate() {
            // A sentence, a quotation or a paragraph starts afresh
            // (苏岩道：“…绰号X”: X is not 苏岩's).
            if run.chapter != chapter
                || run.before.is_whitespace()
                || matches!(
                    run.before,
                    '。' | '！' | '？' | '：' | '“' | '”' | '「' | '」' | '『' | '』' | '\0'
                )
            {
                (chapter, last) = (run.chapter, None);
                pending.clear();
            }
            // A person before 的 or 之 owns what follows (石豹的徒弟，姓柳名青，
            // 绰号X: X is not 石豹's).
            let mut said: Vec<(usize, usize)> = Vec::new();
            while let Some(m) = name_hits.next_if(|h| h.run as usize == r) {
                if !run.text[m.end as usize..].starts_with(['的', '之']) {
                    said.push((m.start as usize, owner[m.pattern as usize]));
                }
            }
            said.sort_unstable();
            // Epithets introduced before anyone was named go to the first
            // person named after them in the sentence (人称独眼狼，正是…卢三).
            if let Some(&(_, who)) = said.first() {
                for epithet in pending.drain(..) {
                    introduced.entry(epithet).or_default().insert(who);
                }
            }
            while let Some(cue) = cue_hits.next_if(|h| h.run as usize == r) {
                let rest =
                    run.text[cue.end as usize..].trim_start_matches(['为', '做', '是', '作']);
                let n = rest.chars().count();
                if !(2..=4).contains(&n) || rest.chars().any(|c| self.is_function_char(c)) {
                    continue;
                }
                let before = said
                    .iter()
                    .rev()
                    .find(|(at, _)| *at < cue.start as usize)
                    .map(|x| x.1);
                match before.or(last) {
                    Some(who) => {
                        introduced.entry(rest.to_string()).or_default().insert(who);
                    }
                    None => pending.push(rest.to_string()),
                }
            }
            if let Some(&(_, who)) = said.last() {
                last = Some(who);
            }
        }
        let known: FxMap<&str, usize> = decided
            .iter()
            .enumerate()
            .map(|(i, d)| (d.name.as_str(), i))
            .collect();
        // Someone's alias already (豹子头 of 林冲): not bound again.
        let aliased: std::collections::HashSet<&str> = decided
            .iter()
            .flat_map(|d| d.aliases.iter().map(String::as_str))
            .collect();
        let mut bind: Vec<(usize, usize)> = Vec::new();
        let mut aliases: Vec<(usize, String)> = Vec::new();
        for (epithet, people) in &introduced {
            let [who] = people.iter().copied().collect::<Vec<_>>()[..] else {
                continue;
            };
            // 号称天子: a generic word is no epithet.
            if decided[who].name == *epithet
                || aliased.contains(epithet.as_str())
                || self.is_generic(epithet)
            {
                continue;
            }
            match known.get(epithet.as_str()) {
                Some(&i) if decided[i].kind == EntityType::Person => bind.push((i, who)),
                Some(_) => {}
                None => aliases.push((who, epithet.clone())),
            }
        }
        if !aliases.is_empty() {
            let words: Vec<String> = aliases.iter().map(|a| a.1.clone()).collect();
            let counts = super::resolve::count_in(&words, runs);
            for ((who, epithet), count) in aliases.into_iter().zip(counts) {
                let d = &mut decided[who];
                d.aliases.insert(epithet);
                d.count += count;
                d.evidence.insert("epithet");
            }
        }
        merge_into(decided, &bind, "epithet")
    }

    /// Binds surname + title forms to the one person they name.
    pub(super) fn bind_title_forms(&self, decided: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        // Forms and full names by surname.
        let mut forms: Vec<(usize, String)> = Vec::new();
        let mut full: FxMap<String, Vec<usize>> = FxMap::default();
        let mut official: FxMap<usize, String> = FxMap::default();
        for (i, d) in decided.iter().enumerate() {
            if d.kind != EntityType::Person {
                continue;
            }
            let chars: Vec<char> = d.name.chars().collect();
            // 老韩: the surname after the prefix, an honorific.
            if d.evidence.contains(ADDRESS_FORM) {
                forms.push((i, chars[1..].iter().collect()));
                continue;
            }
            // A surname our list lacks is the first character of a two- or
            // three-character name (邝青 and 邝爷 in a book that has both).
            let sl = match self.surname(&chars, &d.name) {
                Some((sl, _)) => sl,
                None if (2..=3).contains(&chars.len())
                    && !self.is_function_char(chars[0])
                    && !self.verbish.contains(&chars[0])
                    && !self.chars.birth_order.contains(&chars[0]) =>
                {
                    1
                }
                None => continue,
            };
            let surname: String = chars[..sl].iter().collect();
            let rest = &chars[sl..];
            let rest_s: String = rest.iter().collect();
            if self.is_title_rest(rest) && !self.is_user_canonical(&d.name) {
                // An official title (not an honorific): remember it, the
                // person must be seen with it.
                // The numeral of 钟二爷 is not part of the title; the 大 of
                // 大人 is.
                let title: String =
                    if self.lex.honorifics.contains(&rest_s) || self.titles.contains_key(&rest_s) {
                        rest_s.clone()
                    } else {
                        rest[1..].iter().collect()
                    };
                if !self.lex.honorifics.contains(&title) {
                    official.insert(i, title);
                }
                forms.push((i, surname));
            } else if (1..=2).contains(&rest.len())
                && !self.titles.contains_key(&rest_s)
                && !RELATIVE_TITLES.contains(&rest_s.as_str())
            {
                // 柯巡按, 钟母: a surname and a title name nobody in full.
                full.entry(surname).or_default().push(i);
            }
        }
        forms.retain(|(_, s)| full.contains_key(s));
        if forms.is_empty() {
            return decided;
        }
        // Mentions per chapter of every form and full name involved.
        let mut ids: Vec<usize> = forms.iter().map(|f| f.0).collect();
        for (_, s) in &forms {
            ids.extend(&full[s]);
        }
        ids.sort_unstable();
        ids.dedup();
        // A full name is also said by its aliases (北刀 for 韩千山).
        let full_ids: std::collections::HashSet<usize> = full.values().flatten().copied().collect();
        let (ac, named) = said_by(&decided, &ids, |i| full_ids.contains(&i), runs);
        let mut per_chapter: FxMap<(usize, usize), f64> = FxMap::default();
        // Where each is said: (chapter, byte position in the chapter's runs
        // laid end to end), in text order.
        let mut said_at: FxMap<usize, Vec<(usize, usize)>> = FxMap::default();
        let hits = runs.find_all(&ac);
        let mut hits = hits.iter().peekable();
        let (mut chapter, mut at) = (usize::MAX, 0);
        for (r, run) in runs.iter().enumerate() {
            if run.chapter != chapter {
                (chapter, at) = (run.chapter, 0);
            }
            while let Some(hit) = hits.next_if(|h| h.run as usize == r) {
                let id = named[hit.pattern as usize];
                *per_chapter.entry((id, run.chapter)).or_insert(0.0) += 1.0;
                said_at
                    .entry(id)
                    .or_default()
                    .push((run.chapter, at + hit.start as usize));
            }
            at += run.text.len() + 1;
        }
        for v in said_at.values_mut() {
            v.sort_unstable();
        }
        // Share of a form's mentions with the person named near them.
        let near_share = |form: usize, person: usize| {
            let (Some(forms), Some(theirs)) = (said_at.get(&form), said_at.get(&person)) else {
                return 0.0;
            };
            let near = forms
                .iter()
                .filter(|&&(ch, at)| {
                    let from = theirs.partition_point(|&x| x < (ch, at.saturating_sub(NEAR_BYTES)));
                    theirs
                        .get(from)
                        .is_some_and(|&x| x <= (ch, at + NEAR_BYTES))
                })
                .count();
            near as f64 / forms.len() as f64
        };
        let mut chapters_of: FxMap<usize, Vec<(usize, f64)>> = FxMap::default();
        for (&(id, ch), &c) in &per_chapter {
            chapters_of.entry(id).or_default().push((ch, c));
        }
        for v in chapters_of.values_mut() {
            v.sort_by_key(|x| x.0);
        }
        let count_in = |id: usize, ch: usize| per_chapter.get(&(id, ch)).copied().unwrap_or(0.0);
        // A form with an official title (王都尉, 柯元帅) names a person only
        // if the book also writes the title with that person's full name
        // (元帅柯峻, 柯峻元帅): a post held by one man of a family in one
        // chapter may be another's in the next. Which people the book
        // writes so, for every such form.
        let titled: Vec<(usize, usize, String)> = forms
            .iter()
            .filter_map(|(form, surname)| official.get(form).map(|t| (*form, surname, t)))
            .flat_map(|(form, surname, t)| {
                let decided = &decided;
                full[surname].iter().flat_map(move |&p| {
                    let name = &decided[p].name;
                    [
                        (form, p, format!("{t}{name}")),
                        (form, p, format!("{name}{t}")),
                        // Appointed to it: 封X为元帅, X做了太尉.
                        (form, p, format!("{name}为{t}")),
                        (form, p, format!("{name}做了{t}")),
                        (form, p, format!("{name}得做{t}")),
                        (form, p, format!("{name}当了{t}")),
                    ]
                })
            })
            .collect();
        let mut holds: std::collections::HashSet<(usize, usize)> = Default::default();
        if !titled.is_empty() {
            let ac = runs.matcher(titled.iter().map(|n| n.2.as_str()), MatchKind::Standard);
            for m in runs.find_all(&ac) {
                let (form, person, _) = &titled[m.pattern as usize];
                holds.insert((*form, *person));
            }
        }
        // Each form's person, if one clearly: the one who takes most of
        // its mentions; for an official title, among those who hold it,
        // and the only holder needs a share of `HOLDER_SHARE` only.
        let mut bind: Vec<(usize, usize)> = Vec::new();
        for (form, surname) in &forms {
            let people = &full[surname];
            let mut share = vec![0.0f64; people.len()];
            let mut total = 0.0;
            for &(ch, c) in chapters_of.get(form).map_or(&[][..], |v| v.as_slice()) {
                total += c;
                let named: f64 = people.iter().map(|&p| count_in(p, ch)).sum();
                if named > 0.0 {
                    for (k, &p) in people.iter().enumerate() {
                        share[k] += c * count_in(p, ch) / named;
                    }
                }
            }
            if total <= 0.0 {
                continue;
            }
            let mut order: Vec<usize> = (0..people.len()).collect();
            order.sort_by(|&a, &b| share[b].total_cmp(&share[a]).then(a.cmp(&b)));
            let best = share[order[0]];
            let second = order.get(1).map_or(0.0, |&k| share[k]);
            // Mentions in chapters that name none of the people tell
            // nothing: the shares are of the rest, when the rest is enough.
            let attributed: f64 = share.iter().sum();
            let clear = attributed >= MIN_ATTRIBUTED * total
                && best >= FORM_SHARE * attributed
                && best >= 2.0 * second;
            if !official.contains_key(form) {
                if clear {
                    bind.push((*form, people[order[0]]));
                }
                continue;
            }
            let holders: Vec<usize> = order
                .iter()
                .copied()
                .filter(|&k| holds.contains(&(*form, people[k])))
                .collect();
            let family = self.lex.family_titles.contains(&official[form]);
            match holders.as_slice() {
                [only]
                    if attributed >= MIN_ATTRIBUTED * total
                        && share[*only] >= HOLDER_SHARE * attributed =>
                {
                    bind.push((*form, people[*only]))
                }
                [first, ..] if clear && *first == order[0] => bind.push((*form, people[*first])),
                // Nobody written with the title: the man whose chapters
                // the form all but owns (石丞相), unless the title names
                // a member of his house (柯夫人, 柯公子).
                [] if clear
                    && !family
                    && best >= DOMINANT_SHARE * attributed
                    && near_share(*form, people[order[0]]) >= NEAR_SHARE =>
                {
                    bind.push((*form, people[order[0]]))
                }
                _ => {}
            }
        }
        merge_into(decided, &bind, "form")
    }

    /// Whether a person's name reads as a full name: a surname and one to
    /// three more characters, or two or three characters whose first its
    /// own bound forms use as a surname (邝青 with 邝爷).
    fn is_full_name(&self, d: &Decided) -> bool {
        let chars: Vec<char> = d.name.chars().collect();
        if chars.len() < 2 {
            return false;
        }
        match self.surname(&chars, &d.name) {
            Some((sl, _)) if chars.len() > sl && chars.len() <= 4 => true,
            _ => {
                (2..=3).contains(&chars.len())
                    && d.aliases
                        .iter()
                        .any(|a| a.starts_with(chars[0]) && !a.starts_with(d.name.as_str()))
            }
        }
    }

    /// Epithets: a title or sobriquet written right before one full name
    /// (南剑上官岚, 武威王柯北辰) names that person. It is bound when it
    /// stands before that name at least `EPITHET_MIN` times, twice as often
    /// as before any other full name, never after it; and it is no full
    /// name itself (钟岳苏岩 is two men), unless it ends like a title
    /// written before names (武威王: 王 as in 亲王); nor a relative (乳母柯氏).
    pub(super) fn bind_epithets(&self, decided: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        let persons: Vec<usize> = (0..decided.len())
            .filter(|&i| decided[i].kind == EntityType::Person)
            .collect();
        if persons.len() < 2 {
            return decided;
        }
        let (ac, owner) = said_by(&decided, &persons, |_| true, runs);
        let mut adjacent: FxMap<(usize, usize), u32> = FxMap::default();
        for pair in runs.find_all(&ac).windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let (before, who) = (owner[a.pattern as usize], owner[b.pattern as usize]);
            if a.run == b.run && a.end == b.start && before != who {
                *adjacent.entry((before, who)).or_insert(0) += 1;
            }
        }
        // Last characters of titles written before a name (王 of 亲王).
        let title_tails: std::collections::HashSet<char> = self
            .titles
            .iter()
            .filter(|(_, p)| p.before_name())
            .filter_map(|(t, _)| t.chars().last())
            .collect();
        let mut followers: FxMap<usize, Vec<(u32, usize)>> = FxMap::default();
        for (&(a, b), &n) in &adjacent {
            if self.is_full_name(&decided[b]) && !adjacent.contains_key(&(b, a)) {
                followers.entry(a).or_default().push((n, b));
            }
        }
        let mut bind: Vec<(usize, usize)> = Vec::new();
        for (a, mut next) in followers {
            let d = &decided[a];
            let chars: Vec<char> = d.name.chars().collect();
            let titled = chars.len() >= 3 && title_tails.contains(&chars[chars.len() - 1]);
            let strong_surname = self.surname(&chars, &d.name).is_some_and(|(_, w)| w >= 2);
            // A form not bound yet is its surname's (谷谷主 is no epithet).
            if RELATIVE_TITLES.iter().any(|t| d.name.ends_with(t))
                || d.evidence.contains(UNBOUND_FORM)
                || self.is_user_canonical(&d.name)
                || (!titled && (strong_surname || self.is_full_name(d)))
            {
                continue;
            }
            next.sort_unstable_by(|x, y| y.cmp(x));
            let (n, b) = next[0];
            let second = next.get(1).map_or(0, |x| x.0);
            if n >= EPITHET_MIN && n >= 2 * second {
                bind.push((a, b));
            }
        }
        // An epithet that is itself some other epithet's person stays.
        let targets: std::collections::HashSet<usize> = bind.iter().map(|x| x.1).collect();
        bind.retain(|(a, _)| !targets.contains(a));
        bind.sort_unstable();
        merge_into(decided, &bind, "epithet")
    }

    /// Two persons the text declares one (金相公就是白X, 杨X即倪Y, 姬X，即武王天子也;
    /// cue class `same` of `dict/cues.txt`: 即, 就是, 原名, 化名 …): A, the
    /// cue and B in one clause (即 may follow A's comma), B ending the
    /// clause or followed by 也/呢/矣 or a title; or a relative clause, a
    /// cue that names a name, A, 的 and B (改名A的B). A merge a book states
    /// for two different partners is ambiguous and not made; the pair
    /// goes under the name said more often (evidence `same`).
    pub(super) fn bind_declared(&self, decided: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        let persons: Vec<usize> = (0..decided.len())
            .filter(|&i| decided[i].kind == EntityType::Person)
            .collect();
        if persons.len() < 2 {
            return decided;
        }
        let same: Vec<&str> = self
            .cues
            .iter()
            .filter(|(_, c)| c[class_index(CueClass::Same)] > 0)
            .map(|(w, _)| w.as_str())
            .collect();
        let (ac, owner) = said_by(&decided, &persons, |_| true, runs);
        // B at `at` of a run ends the clause, or a particle or title follows it.
        let ends_clause = |rest: &str| {
            rest.is_empty()
                || rest.starts_with(['也', '呢', '矣'])
                || self.titles.keys().any(|t| rest.starts_with(t.as_str()))
        };
        let found_in = |text: &str| -> Vec<(usize, usize, usize)> {
            ac.ac
                .find_iter(text)
                .map(|m| (m.start(), m.end(), owner[m.pattern().as_usize()]))
                .collect()
        };
        // Each run on its own (in parallel), looking at the next run only
        // when A ends this one at a comma (姬X，即武王).
        let pairs: Vec<Vec<(usize, usize)>> = runs.map_matchable_at(&ac, |part| {
            let mut pairs = Vec::new();
            for i in part {
                let run = runs.at(i);
                let found = found_in(run.text);
                let mut out: Vec<(usize, usize)> = found
                    .windows(2)
                    .filter(|w| {
                        let ((s1, e1, a), (s2, e2, b)) = (w[0], w[1]);
                        let gap = &run.text[e1..s2];
                        // X原名Y; or as a relative clause, 改名Y的X (a
                        // cue that names a name, not 即: 即Y的X is no
                        // declaration).
                        let declared = same.contains(&gap)
                            || (gap == "的"
                                && same
                                    .iter()
                                    .any(|c| c.contains('名') && run.text[..s1].ends_with(c)));
                        a != b && declared && ends_clause(&run.text[e2..])
                    })
                    .map(|w| (w[0].2, w[1].2))
                    .collect();
                let comma_after = |&(_, e, _): &(usize, usize, usize)| {
                    e == run.text.len() && matches!(run.after, '，' | ',')
                };
                if let (Some(&(_, _, a)), Some(next)) = (
                    found.last().filter(|m| comma_after(m)),
                    runs.get(i + 1).filter(|r| r.chapter == run.chapter),
                ) {
                    if let Some(&(s, e, b)) = found_in(next.text).first() {
                        if matches!(&next.text[..s], "即" | "即是")
                            && b != a
                            && ends_clause(&next.text[e..])
                        {
                            out.push((a, b));
                        }
                    }
                }
                pairs.extend(out);
            }
            pairs
        });
        let pairs: BTreeSet<(usize, usize)> = pairs.into_iter().flatten().collect();
        let mut partners: FxMap<usize, Vec<usize>> = FxMap::default();
        for &(a, b) in &pairs {
            partners.entry(a).or_default().push(b);
            partners.entry(b).or_default().push(a);
        }
        let mut bind: Vec<(usize, usize)> = pairs
            .iter()
            .filter(|(a, b)| partners[a].len() == 1 && partners[b].len() == 1)
            .map(|&(a, b)| {
                if (decided[a].count, std::cmp::Reverse(a))
                    > (decided[b].count, std::cmp::Reverse(b))
                {
                    (b, a)
                } else {
                    (a, b)
                }
            })
            .collect();
        bind.sort_unstable();
        merge_into(decided, &bind, "same")
    }

    /// A birth-order form written right before a person's given or full
    /// name (六郎北辰, 四爷韩千山: the sixth son, 北辰) names that person:
    /// the surname + birth-order form (柯六郎, 韩四爷), when it is a person
    /// of its own, is bound to the full name (evidence `order`). Unlike the
    /// title forms, 郎 counts here: the text itself says who the sixth son
    /// is. A form written so before two people, or a person with two such
    /// forms, is ambiguous and stays apart. A given name written alone
    /// after the form (七郎北辰) joins the one person named surname + that
    /// form (韩七郎), if only one is.
    pub(super) fn bind_birth_order(&self, decided: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        let persons: Vec<usize> = (0..decided.len())
            .filter(|&i| decided[i].kind == EntityType::Person)
            .collect();
        if persons.len() < 2 {
            return decided;
        }
        let row_of = person_rows(&decided);
        let order_char = |c: char| self.chars.birth_order.contains(&c) && !matches!(c, '小' | '老');
        let honorific = |c: char| {
            c == '郎'
                || self
                    .lex
                    .honorifics
                    .contains(c.encode_utf8(&mut [0; 4]) as &str)
        };
        // A person's surname and the names that follow a birth-order form:
        // the full name and a given name used alone.
        let mut forms: Vec<&str> = Vec::new();
        let mut owner: Vec<(usize, &str)> = Vec::new();
        for &i in &persons {
            let d = &decided[i];
            let chars: Vec<char> = d.name.chars().collect();
            // A given name alone (北辰) takes the surname of the one form
            // written before it (七郎北辰: 韩七郎).
            let sl = self.surname(&chars, &d.name).map_or(0, |(sl, _)| sl);
            if sl == 0 && chars.len() != 2 {
                continue;
            }
            if !(1..=3).contains(&(chars.len() - sl)) {
                continue;
            }
            let surname = &d.name[..chars[..sl].iter().map(|c| c.len_utf8()).sum::<usize>()];
            let given = &d.name[surname.len()..];
            // 钟大爷钟二爷: a birth-order form after another is a brother
            // named beside him, not the name the first one stands for.
            if let [b, h] = chars[sl..] {
                if order_char(b) && honorific(h) {
                    continue;
                }
            }
            for n in std::iter::once(d.name.as_str())
                .chain(d.aliases.iter().map(String::as_str).filter(|a| *a == given))
            {
                forms.push(n);
                owner.push((i, surname));
            }
        }
        if forms.is_empty() {
            return decided;
        }
        // Persons named surname + birth order + honorific (韩七郎), by the
        // last two characters.
        let mut by_order: FxMap<(char, char), Vec<usize>> = FxMap::default();
        for &i in &persons {
            let chars: Vec<char> = decided[i].name.chars().collect();
            if let Some((sl, _)) = self.surname(&chars, &decided[i].name) {
                if chars.len() == sl + 2 {
                    by_order
                        .entry((chars[sl], chars[sl + 1]))
                        .or_default()
                        .push(i);
                }
            }
        }
        let ac = runs.matcher(&forms, MatchKind::LeftmostLongest);
        let pairs: Vec<Vec<(usize, usize)>> = runs.map_matchable(&ac, |part| {
            let mut out = Vec::new();
            for run in part {
                for m in ac.ac.find_iter(run.text) {
                    let (p, surname) = owner[m.pattern().as_usize()];
                    let mut before = run.text[..m.start()].chars().rev();
                    let (Some(h), Some(b)) = (before.next(), before.next()) else {
                        continue;
                    };
                    if !honorific(h) || !order_char(b) {
                        continue;
                    }
                    if surname.is_empty() {
                        // The given name joins the one form (韩七郎).
                        if let Some([f]) = by_order.get(&(b, h)).map(Vec::as_slice) {
                            if *f != p {
                                out.push((p, *f));
                            }
                        }
                        continue;
                    }
                    let form = format!("{surname}{b}{h}");
                    if let Some(&f) = row_of.get(form.as_str()) {
                        if f != p {
                            out.push((f, p));
                        }
                    }
                }
            }
            out
        });
        let pairs: BTreeSet<(usize, usize)> = pairs.into_iter().flatten().collect();
        let mut partners: FxMap<usize, usize> = FxMap::default();
        for &(f, p) in &pairs {
            *partners.entry(f).or_default() += 1;
            *partners.entry(p).or_default() += 1;
        }
        let mut bind: Vec<(usize, usize)> = pairs
            .into_iter()
            .filter(|(f, p)| {
                partners[f] == 1 && partners[p] == 1 && !self.is_user_canonical(&decided[*f].name)
            })
            .collect();
        bind.sort_unstable();
        merge_into(decided, &bind, "order")
    }

    /// A person named with the faction first (燕铁衣: 铁衣 of 燕; 北燕韩千山)
    /// is the person the rest names, when the rest is the name or an alias
    /// of another person (evidence `alias`).
    pub(super) fn bind_faction_prefixed(&self, decided: Vec<Decided>) -> Vec<Decided> {
        let faction_names: std::collections::HashSet<&str> = decided
            .iter()
            .filter(|d| d.kind == EntityType::Faction)
            .flat_map(|d| std::iter::once(&d.name).chain(&d.aliases))
            .map(String::as_str)
            .collect();
        let person_of = person_rows(&decided);
        let mut bind = Vec::new();
        for (i, d) in decided.iter().enumerate() {
            if d.kind != EntityType::Person || self.is_user_canonical(&d.name) {
                continue;
            }
            let cuts = d.name.char_indices().map(|(k, _)| k).skip(1).take(2);
            for k in cuts {
                let (head, rest) = d.name.split_at(k);
                if rest.chars().count() < 2 || !faction_names.contains(head) {
                    continue;
                }
                if let Some(&p) = person_of.get(rest) {
                    if p != i {
                        bind.push((i, p));
                        break;
                    }
                }
            }
        }
        merge_into(decided, &bind, "alias")
    }

    /// A ruler's wife holds the consort titles in turn (韩妃, then 韩后, then
    /// 韩太后), so a book's persons named one surname + a consort title are
    /// one woman and join the one said most (evidence `consort`), unless
    /// one clause names two of them (韩妃与韩贵妃: two women). The
    /// one-character short forms of the titles (后 of 皇后, 妃 of 贵妃)
    /// count.
    pub(super) fn bind_consort_forms(&self, decided: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        let short: std::collections::HashSet<char> = self
            .lex
            .consort_titles
            .iter()
            .filter_map(|t| {
                let cs: Vec<char> = t.chars().collect();
                let last = *cs.last()?;
                (cs.len() >= 2 && cs[cs.len() - 2] != last).then_some(last)
            })
            .filter(|c| !RELATIVE_TITLES.iter().any(|t| t.chars().eq([*c])))
            .collect();
        let mut by_surname: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (i, d) in decided.iter().enumerate() {
            if d.kind != EntityType::Person {
                continue;
            }
            let chars: Vec<char> = d.name.chars().collect();
            let Some((sl, _)) = self.surname(&chars, &d.name) else {
                continue;
            };
            let rest: String = chars[sl..].iter().collect();
            let consort = self.lex.consort_titles.contains(&rest)
                || (chars.len() == sl + 1 && short.contains(&chars[sl]));
            if consort {
                let surname: String = chars[..sl].iter().collect();
                by_surname.entry(surname).or_default().push(i);
            }
        }
        by_surname.retain(|_, rows| rows.len() >= 2);
        if by_surname.is_empty() {
            return decided;
        }
        let ids: Vec<usize> = by_surname.values().flatten().copied().collect();
        let (ac, owner) = said_by(&decided, &ids, |_| false, runs);
        let group_of: FxMap<usize, &str> = by_surname
            .iter()
            .flat_map(|(s, rows)| rows.iter().map(move |&i| (i, s.as_str())))
            .collect();
        // Surnames with two of their forms in one clause.
        let two_women: Vec<Vec<&str>> = runs.map_matchable(&ac, |part| {
            let mut two = Vec::new();
            for run in part {
                let mut seen: Vec<usize> = ac
                    .ac
                    .find_iter(run.text)
                    .map(|m| owner[m.pattern().as_usize()])
                    .collect();
                seen.sort_unstable();
                seen.dedup();
                for (k, &a) in seen.iter().enumerate() {
                    two.extend(
                        seen[k + 1..]
                            .iter()
                            .filter(|&&b| group_of[&a] == group_of[&b])
                            .map(|_| group_of[&a]),
                    );
                }
            }
            two
        });
        let two_women: std::collections::HashSet<&str> = two_women.into_iter().flatten().collect();
        let mut bind = Vec::new();
        for (surname, rows) in &by_surname {
            if two_women.contains(surname.as_str())
                || rows
                    .iter()
                    .any(|&i| self.is_user_canonical(&decided[i].name))
            {
                continue;
            }
            let into = *rows
                .iter()
                .max_by(|&&a, &&b| {
                    decided[a]
                        .count
                        .cmp(&decided[b].count)
                        .then(decided[b].name.cmp(&decided[a].name))
                })
                .expect("two rows");
            bind.extend(rows.iter().filter(|&&i| i != into).map(|&i| (i, into)));
        }
        merge_into(decided, &bind, "consort")
    }

    /// Merges 大宋, 宋朝, 宋国 into the faction 宋 when 宋 is one.
    pub(super) fn merge_faction_forms(&self, decided: Vec<Decided>) -> Vec<Decided> {
        let faction_at: FxMap<&str, usize> = decided
            .iter()
            .enumerate()
            .filter(|(_, d)| d.kind == EntityType::Faction)
            .map(|(i, d)| (d.name.as_str(), i))
            .collect();
        let mut bind = Vec::new();
        for (i, d) in decided.iter().enumerate() {
            if d.kind != EntityType::Faction {
                continue;
            }
            let n = d.name.as_str();
            let stem = n
                .strip_prefix('大')
                .or_else(|| ["朝", "国", "邦"].iter().find_map(|s| n.strip_suffix(s)));
            if let Some(&j) = stem
                .filter(|s| !s.is_empty())
                .and_then(|s| faction_at.get(s))
            {
                if j != i {
                    bind.push((i, j));
                }
            }
        }
        merge_into(decided, &bind, "alias")
    }
}

/// Every name and alias of a person, and the (first) row it names.
fn person_rows(decided: &[Decided]) -> FxMap<&str, usize> {
    let mut rows: FxMap<&str, usize> = FxMap::default();
    for (i, d) in decided.iter().enumerate() {
        if d.kind == EntityType::Person {
            for n in std::iter::once(&d.name).chain(&d.aliases) {
                rows.entry(n.as_str()).or_insert(i);
            }
        }
    }
    rows
}

/// A matcher of the names of `ids` (and of their aliases, for those
/// `with_aliases` picks), longest first, and the id each pattern names.
fn said_by(
    decided: &[Decided],
    ids: &[usize],
    with_aliases: impl Fn(usize) -> bool,
    runs: &Runs,
) -> (BookMatcher, Vec<usize>) {
    let mut names: Vec<&str> = Vec::new();
    let mut owner: Vec<usize> = Vec::new();
    for &i in ids {
        let d = &decided[i];
        let aliases = d.aliases.iter().filter(|_| with_aliases(i));
        for n in std::iter::once(&d.name).chain(aliases) {
            names.push(n);
            owner.push(i);
        }
    }
    (runs.matcher(&names, MatchKind::LeftmostLongest), owner)
}

/// Moves each `(from, into)` entity into the other as an alias (with its
/// aliases and count), with an evidence code.
pub(super) fn merge_into(
    mut decided: Vec<Decided>,
    bind: &[(usize, usize)],
    code: &'static str,
) -> Vec<Decided> {
    if bind.is_empty() {
        return decided;
    }
    let mut gone = vec![false; decided.len()];
    for &(from, into) in bind {
        if gone[into] {
            continue;
        }
        let f = std::mem::take(&mut decided[from].aliases);
        let name = decided[from].name.clone();
        let count = decided[from].count;
        let target = &mut decided[into];
        target.aliases.insert(name);
        target.aliases.extend(f);
        target.count += count;
        target.evidence.insert(code);
        gone[from] = true;
    }
    decided
        .into_iter()
        .zip(gone)
        .filter(|(_, g)| !g)
        .map(|(d, _)| d)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::decided_owned;
    use super::*;
    use crate::entity::corpus::RunStore;
    use crate::entity::Lexicon;
    use std::collections::BTreeSet;
    use std::sync::OnceLock;

    fn recognizer() -> &'static Recognizer {
        static R: OnceLock<Recognizer> = OnceLock::new();
        R.get_or_init(|| Recognizer::new(Lexicon::builtin()))
    }

    #[test]
    fn an_unbound_form_of_an_unnamed_surname_is_a_person_in_a_chapter() {
        let r = recognizer();
        let unbound =
            |w: &str| decided_owned(w.to_string(), EntityType::Person, 0.5, &[UNBOUND_FORM], 3);
        let all = || {
            vec![
                decided_owned("韩千山".to_string(), EntityType::Person, 0.9, &["say"], 9),
                // No person of the surname 苏: someone the chapter never names.
                unbound("苏先生"),
                // 韩千山 or another of his house.
                unbound("韩将军"),
                // Words of the dictionary (师 is a rare surname too).
                unbound("师叔"),
                unbound("后生"),
            ]
        };
        let names = |v: Vec<Decided>| -> Vec<(String, Vec<&'static str>)> {
            v.into_iter()
                .map(|d| (d.name, d.evidence.into_iter().collect()))
                .collect()
        };
        assert_eq!(
            names(r.settle_unbound_forms(all(), true)),
            [
                ("韩千山".to_string(), vec!["say"]),
                ("苏先生".to_string(), vec!["form"])
            ]
        );
        // A book names its people: an unbound form there goes.
        assert_eq!(
            names(r.settle_unbound_forms(all(), false)),
            [("韩千山".to_string(), vec!["say"])]
        );
    }

    fn entity(kind: EntityType, name: &str) -> Decided {
        decided_owned(name.to_string(), kind, 0.9, &["sur"], 3)
    }

    /// (name, aliases) of what remains.
    fn merged(list: &[Decided]) -> BTreeSet<(String, Vec<String>)> {
        super::super::alias_rows(list)
    }

    type Case = (
        &'static str,
        &'static [&'static str],
        &'static [&'static str],
        &'static [(&'static str, &'static [&'static str])],
    );

    /// 韩都尉 twice, then more than `NEAR_BYTES` later 韩千山.
    const FAR_FORM: &str = "韩都尉坐下。韩都尉起身。\
        天色渐晚众人各自散去山下小路无人行走只有风声雨声鸟声水声\
        天色渐晚众人各自散去山下小路无人行走只有风声雨声鸟声水声\
        天色渐晚众人各自散去山下小路无人行走只有风声雨声鸟声水声\
        天色渐晚众人各自散去山下小路无人行走只有风声雨声鸟声水声\
        天色渐晚众人各自散去山下小路无人行走只有风声雨声鸟声水声\
        天色渐晚众人各自散去山下小路无人行走只有风声雨声鸟声水声\
        天色渐晚众人各自散去山下小路无人行走只有风声雨声鸟声水声\
        。韩千山说话。";

    /// (rule, chapters, persons, expected (name, aliases) rows).
    const CASES: &[Case] = &[
        (
            "the only full name with that surname takes the form",
            &["钟千山说话。钟爷坐下。", "钟爷起身。钟千山出门。"],
            &["钟千山", "钟爷"],
            &[("钟千山", &["钟爷"])],
        ),
        (
            "a modern rank is a title: the one who holds it takes the form",
            &["团长韩千山说话。韩团长坐下。", "韩团长起身。韩千山出门。"],
            &["韩千山", "韩团长"],
            &[("韩千山", &["韩团长"])],
        ),
        (
            "a sect's head too",
            &["掌门韩千山说话。韩掌门坐下。", "韩掌门起身。韩千山出门。"],
            &["韩千山", "韩掌门"],
            &[("韩千山", &["韩掌门"])],
        ),
        (
            "an official title binds to the one the book appoints to it (封X为元帅)",
            &[
                "皇帝封韩千山为元帅。韩元帅谢恩。韩青在旁。",
                "韩元帅出征。韩千山上马。韩元帅大喜。韩青回家。",
            ],
            &["韩千山", "韩青", "韩元帅"],
            &[("韩千山", &["韩元帅"]), ("韩青", &[])],
        ),
        (
            "the head of a 门 sect (门主) as well",
            &["门主厉天啸说话。厉门主坐下。", "厉门主起身。厉天啸出门。"],
            &["厉天啸", "厉门主"],
            &[("厉天啸", &["厉门主"])],
        ),
        (
            "a birth-order form binds too",
            &["韩千山说话。韩四爷坐下。韩四爷起身。"],
            &["韩千山", "韩四爷"],
            &[("韩千山", &["韩四爷"])],
        ),
        (
            "two brothers named as often: the form stays apart",
            &["韩青同韩松来。韩公子笑。", "韩松同韩青去。韩公子走。"],
            &["韩青", "韩松", "韩公子"],
            &[("韩青", &[]), ("韩松", &[]), ("韩公子", &[])],
        ),
        (
            "the person the form's chapters name most takes it",
            &[
                "钟千山见钟千山旧部，钟千山大喜。钟青在旁。钟爷笑。",
                "钟千山出城。钟爷上马。",
            ],
            &["钟千山", "钟青", "钟爷"],
            &[("钟千山", &["钟爷"]), ("钟青", &[])],
        ),
        (
            "a surname missing from our list still binds its forms",
            &["邝千山说话。邝爷坐下。", "邝爷起身。邝千山出门。"],
            &["邝千山", "邝爷"],
            &[("邝千山", &["邝爷"])],
        ),
        (
            "an official title nobody is written with binds to the man who owns its chapters",
            &["韩千山说话。韩都尉坐下。", "韩都尉起身。韩千山出门。"],
            &["韩千山", "韩都尉"],
            &[("韩千山", &["韩都尉"])],
        ),
        (
            "nor when the form is said far from him (another 韩 the chapter never names in full)",
            &[FAR_FORM, "韩千山出门。"],
            &["韩千山", "韩都尉"],
            &[("韩千山", &[]), ("韩都尉", &[])],
        ),
        (
            "but not when he only leads: an official title needs more than an honorific",
            &[
                "韩千山说话。韩都尉坐下。",
                "韩千山出门。韩都尉起身。",
                "韩青说话。韩都尉走了。",
            ],
            &["韩千山", "韩青", "韩都尉"],
            &[("韩千山", &[]), ("韩青", &[]), ("韩都尉", &[])],
        ),
        (
            "an honorific binds to the leader (大人 is an honorific, not 大 + 人)",
            &[
                "韩千山说话。韩大人坐下。",
                "韩千山出门。韩大人起身。",
                "韩青说话。韩大人走了。",
            ],
            &["韩千山", "韩青", "韩大人"],
            &[("韩千山", &["韩大人"]), ("韩青", &[])],
        ),
        (
            "then the one written with the title takes it",
            &[
                "都尉韩青说话。韩千山说话。韩都尉坐下。",
                "韩千山出门。韩都尉起身。",
                "韩青说话。韩都尉走了。",
            ],
            &["韩千山", "韩青", "韩都尉"],
            &[("韩青", &["韩都尉"]), ("韩千山", &[])],
        ),
        (
            "a family title needs its holder written with it, however its chapters fall",
            &["韩千山说话。韩夫人坐下。", "韩夫人起身。韩千山出门。"],
            &["韩千山", "韩夫人"],
            &[("韩千山", &[]), ("韩夫人", &[])],
        ),
        (
            "the only holder of an official title takes it though a son shares its chapters",
            &[
                "元帅钟千山升帐。钟元帅传令，钟青领命。钟青出营。",
                "钟千山回营。钟元帅大喜。钟青退下。",
            ],
            &["钟千山", "钟青", "钟元帅"],
            &[("钟千山", &["钟元帅"]), ("钟青", &[])],
        ),
        (
            "an enemy's insult after the surname is a form of the man it names",
            &[
                "韩千山出阵。番将骂道：“韩南蛮休走！”韩千山大怒。",
                "韩南蛮又来了。韩千山拍马上前。韩青守营。",
            ],
            &["韩千山", "韩青", "韩南蛮"],
            &[("韩千山", &["韩南蛮"]), ("韩青", &[])],
        ),
        (
            "chapters that name none of the people tell nothing",
            &["钟千山说话。钟爷坐下。", "钟爷起身。", "钟爷走了。"],
            &["钟千山", "钟爷"],
            &[("钟千山", &["钟爷"])],
        ),
        (
            "a relative named by the surname is no full name",
            &["钟千山说话。钟母坐下。钟爷起身。"],
            &["钟千山", "钟母", "钟爷"],
            &[("钟千山", &["钟爷"]), ("钟母", &[])],
        ),
        (
            "no full name in the book: the form stays",
            &["钟爷说话。钟爷走了。"],
            &["钟爷"],
            &[("钟爷", &[])],
        ),
    ];

    /// Runs one binding pass over each case's persons and checks the rows.
    fn check_table(
        cases: &[Case],
        pass: impl Fn(&Recognizer, Vec<Decided>, &Runs) -> Vec<Decided>,
    ) {
        let r = recognizer();
        for (rule, chapters, persons, want) in cases {
            let store = RunStore::new(chapters);
            let runs = store.runs();
            let decided: Vec<Decided> = persons
                .iter()
                .map(|n| entity(EntityType::Person, n))
                .collect();
            let got = merged(&pass(r, decided, &runs));
            let want = super::super::expected_rows(want);
            assert_eq!(got, want, "{rule}");
        }
    }

    #[test]
    fn title_forms_by_table() {
        check_table(CASES, |r, d, runs| r.bind_title_forms(d, runs));
    }

    /// (rule, chapters, persons, expected (name, aliases) rows) for epithets.
    const EPITHET_CASES: &[Case] = &[
        (
            "a sobriquet written before one full name names him",
            &[
                "神刀韩千山来了。神刀说话。",
                "神刀韩千山坐下。神刀韩千山出门。",
            ],
            &["神刀", "韩千山"],
            &[("韩千山", &["神刀"])],
        ),
        (
            "twice is not enough",
            &["神刀韩千山来了。神刀说话。神刀韩千山坐下。"],
            &["神刀", "韩千山"],
            &[("韩千山", &[]), ("神刀", &[])],
        ),
        (
            "two full names side by side are two people",
            &["柯北辰韩千山来了。柯北辰韩千山坐下。柯北辰韩千山出门。"],
            &["柯北辰", "韩千山"],
            &[("韩千山", &[]), ("柯北辰", &[])],
        ),
        (
            "a title ending like 亲王 binds though it starts with a surname",
            &["武威王韩千山来了。武威王韩千山坐下。武威王韩千山出门。"],
            &["武威王", "韩千山"],
            &[("韩千山", &["武威王"])],
        ),
        (
            "a relative before a name is no epithet",
            &["乳母苏氏来了。乳母苏氏坐下。乳母苏氏出门。"],
            &["乳母", "苏氏"],
            &[("苏氏", &[]), ("乳母", &[])],
        ),
        (
            "written after the name too: no epithet",
            &["神刀韩千山来了。神刀韩千山坐下。神刀韩千山出门。韩千山神刀二人。"],
            &["神刀", "韩千山"],
            &[("韩千山", &[]), ("神刀", &[])],
        ),
        (
            "before two full names alike: no epithet",
            &["神刀韩千山来了。神刀韩千山坐下。神刀韩千山出门。神刀柯北辰来了。神刀柯北辰走了。"],
            &["神刀", "韩千山", "柯北辰"],
            &[("韩千山", &[]), ("柯北辰", &[]), ("神刀", &[])],
        ),
    ];

    #[test]
    fn epithets_by_table() {
        check_table(EPITHET_CASES, |r, d, runs| r.bind_epithets(d, runs));
    }

    /// (rule, chapters, persons, expected (name, aliases) rows) for names
    /// the text declares one.
    const DECLARED_CASES: &[Case] = &[
        (
            "X就是Y at the end of a clause",
            &["他却不知韩千山就是柯北辰呢。"],
            &["韩千山", "柯北辰"],
            &[("韩千山", &["柯北辰"])],
        ),
        (
            "X，即Y也: the cue after X's comma",
            &["次子为韩千山，即柯北辰也。"],
            &["韩千山", "柯北辰"],
            &[("韩千山", &["柯北辰"])],
        ),
        (
            "X原名Y followed by a title",
            &["韩千山原名柯北辰将军。"],
            &["韩千山", "柯北辰"],
            &[("韩千山", &["柯北辰"])],
        ),
        (
            "a relative clause: 改名Y的X",
            &["他便是改名柯北辰的韩千山。"],
            &["韩千山", "柯北辰"],
            &[("韩千山", &["柯北辰"])],
        ),
        (
            "a relative clause with a cue that names no name (即Y的X): no equality",
            &["他便是即柯北辰的韩千山。"],
            &["韩千山", "柯北辰"],
            &[("柯北辰", &[]), ("韩千山", &[])],
        ),
        (
            "Y's noun phrase goes on: no equality (韩千山就是柯北辰的兄弟)",
            &["韩千山就是柯北辰的兄弟。"],
            &["韩千山", "柯北辰"],
            &[("柯北辰", &[]), ("韩千山", &[])],
        ),
        (
            "即 of 即令, an adverb before a verb: no equality",
            &["韩千山即令柯北辰出城。"],
            &["韩千山", "柯北辰"],
            &[("柯北辰", &[]), ("韩千山", &[])],
        ),
        (
            "one name declared equal to two others: ambiguous, no merge",
            &["韩千山即柯北辰。韩千山即苏青禾。"],
            &["韩千山", "柯北辰", "苏青禾"],
            &[("柯北辰", &[]), ("苏青禾", &[]), ("韩千山", &[])],
        ),
    ];

    #[test]
    fn declared_names_by_table() {
        check_table(DECLARED_CASES, |r, d, runs| r.bind_declared(d, runs));
    }

    const BIRTH_ORDER_CASES: &[Case] = &[
        (
            "a birth-order form before a full name",
            &["只见四爷韩千山走来。"],
            &["韩千山", "韩四爷"],
            &[("韩千山", &["韩四爷"])],
        ),
        (
            "郎 counts: the sixth son is named",
            &["六郎柯北辰上前。"],
            &["柯北辰", "柯六郎"],
            &[("柯北辰", &["柯六郎"])],
        ),
        (
            "one form before two people: ambiguous, no merge",
            &["四爷韩千山来了。四爷韩北辰也来了。"],
            &["韩千山", "韩北辰", "韩四爷"],
            &[("韩千山", &[]), ("韩北辰", &[]), ("韩四爷", &[])],
        ),
        (
            "a birth-order form after another is a brother beside him",
            &["钟大爷钟二爷送至庄外。钟大爷钟二爷又来了。"],
            &["钟大爷", "钟二爷"],
            &[("钟大爷", &[]), ("钟二爷", &[])],
        ),
        (
            "老 is age, not birth order",
            &["老爷韩千山坐下。"],
            &["韩千山", "韩老爷"],
            &[("韩千山", &[]), ("韩老爷", &[])],
        ),
        (
            "the form takes the surname of the name after it",
            &["四爷柯北辰坐下。"],
            &["柯北辰", "韩四爷"],
            &[("柯北辰", &[]), ("韩四爷", &[])],
        ),
        (
            "a given name alone joins the one surname + form",
            &["七郎北辰上前。"],
            &["北辰", "韩七郎"],
            &[("韩七郎", &["北辰"])],
        ),
        (
            "a given name alone after a form two families have: no merge",
            &["七郎北辰上前。"],
            &["北辰", "韩七郎", "柯七郎"],
            &[("北辰", &[]), ("柯七郎", &[]), ("韩七郎", &[])],
        ),
    ];

    #[test]
    fn birth_order_forms_by_table() {
        check_table(BIRTH_ORDER_CASES, |r, d, runs| r.bind_birth_order(d, runs));
    }

    /// (rule, chapters, persons, expected rows) for consort titles.
    const CONSORT_CASES: &[Case] = &[
        (
            "one surname's consort titles, held in turn, are one woman",
            &["韩妃入宫。", "韩后坐下。韩太后出门。"],
            &["韩妃", "韩后", "韩太后"],
            &[("韩后", &["韩太后", "韩妃"])],
        ),
        (
            "娘娘 is a consort title",
            &["韩贵妃入宫。韩娘娘坐下。"],
            &["韩贵妃", "韩娘娘"],
            &[("韩娘娘", &["韩贵妃"])],
        ),
        (
            "two forms in one clause are two women",
            &["韩妃与韩贵妃同坐。", "韩妃出门。"],
            &["韩妃", "韩贵妃"],
            &[("韩妃", &[]), ("韩贵妃", &[])],
        ),
        (
            "two surnames are two women",
            &["韩后坐下。柯妃出门。"],
            &["韩后", "柯妃"],
            &[("韩后", &[]), ("柯妃", &[])],
        ),
        (
            "a wife's or a mother's title is no consort's",
            &["韩夫人坐下。韩母出门。韩妃入宫。"],
            &["韩夫人", "韩母", "韩妃"],
            &[("韩夫人", &[]), ("韩母", &[]), ("韩妃", &[])],
        ),
    ];

    #[test]
    fn consort_forms_by_table() {
        check_table(CONSORT_CASES, |r, d, runs| r.bind_consort_forms(d, runs));
    }

    #[test]
    fn a_person_named_with_the_faction_first_by_table() {
        // (rule, persons with their aliases, factions, expected rows)
        type Case = (
            &'static str,
            &'static [(&'static str, &'static [&'static str])],
            &'static [&'static str],
            &'static [(&'static str, &'static [&'static str])],
        );
        let cases: &[Case] = &[
            (
                "faction + a person's alias",
                &[("柯北辰", &["北辰"]), ("燕北辰", &[])],
                &["燕"],
                &[("柯北辰", &["北辰", "燕北辰"])],
            ),
            (
                "faction + a person's name",
                &[("韩千山", &[]), ("北燕韩千山", &[])],
                &["北燕"],
                &[("韩千山", &["北燕韩千山"])],
            ),
            (
                "no faction first: two people",
                &[("柯北辰", &["北辰"]), ("燕北辰", &[])],
                &["秦"],
                &[("柯北辰", &["北辰"]), ("燕北辰", &[])],
            ),
            (
                "the rest is no one's name",
                &[("燕山", &[]), ("燕山青", &[])],
                &["燕"],
                &[("燕山", &[]), ("燕山青", &[])],
            ),
        ];
        for (rule, persons, factions, want) in cases {
            let mut decided: Vec<Decided> = persons
                .iter()
                .map(|(n, aliases)| {
                    let mut d = entity(EntityType::Person, n);
                    d.aliases.extend(aliases.iter().map(|a| a.to_string()));
                    d
                })
                .collect();
            decided.extend(factions.iter().map(|f| entity(EntityType::Faction, f)));
            let got: BTreeSet<(String, Vec<String>)> = merged(
                &recognizer()
                    .bind_faction_prefixed(decided)
                    .into_iter()
                    .filter(|d| d.kind == EntityType::Person)
                    .collect::<Vec<_>>(),
            );
            assert_eq!(got, super::super::expected_rows(want), "{rule}");
        }
    }

    #[test]
    fn a_birth_order_form_before_a_given_name_used_alone() {
        let store = RunStore::new(&["六郎千山上前。"]);
        let runs = store.runs();
        let mut person = entity(EntityType::Person, "韩千山");
        person.aliases.insert("千山".into());
        let form = entity(EntityType::Person, "韩六郎");
        let got = merged(&recognizer().bind_birth_order(vec![person, form], &runs));
        assert_eq!(
            got,
            super::super::expected_rows(&[("韩千山", &["千山", "韩六郎"])])
        );
    }

    #[test]
    fn a_persons_aliases_say_his_chapters() {
        let store = RunStore::new(&[
            "北刀说话。钟爷坐下。",
            "北刀出门。钟爷起身。",
            "钟千山来了。",
        ]);
        let runs = store.runs();
        let mut person = entity(EntityType::Person, "钟千山");
        let form = entity(EntityType::Person, "钟爷");
        let unaliased =
            merged(&recognizer().bind_title_forms(vec![person.clone(), form.clone()], &runs));
        assert!(
            unaliased.contains(&("钟爷".to_string(), vec![])),
            "{unaliased:?}"
        );
        person.aliases.insert("北刀".to_string());
        let got = merged(&recognizer().bind_title_forms(vec![person, form], &runs));
        assert!(
            got.contains(&(
                "钟千山".to_string(),
                vec!["北刀".to_string(), "钟爷".to_string()]
            )),
            "{got:?}"
        );
    }

    #[test]
    fn a_users_alias_canonical_is_never_bound_away() {
        let mut lex = Lexicon::builtin();
        lex.add_aliases_text(std::path::Path::new("mine.tsv"), "钟爷\t钟老大\n")
            .unwrap();
        let r = Recognizer::new(lex);
        let store = RunStore::new(&["钟千山说话。钟爷坐下。", "钟爷起身。钟千山出门。"]);
        let runs = store.runs();
        let decided = vec![
            entity(EntityType::Person, "钟千山"),
            entity(EntityType::Person, "钟爷"),
        ];
        let names: BTreeSet<String> = r
            .bind_title_forms(decided, &runs)
            .into_iter()
            .map(|d| d.name)
            .collect();
        assert_eq!(names, ["钟千山".to_string(), "钟爷".to_string()].into());
    }

    #[test]
    fn a_bound_form_brings_its_count_and_evidence() {
        let store = RunStore::new(&["钟千山说话。钟爷坐下。"]);
        let runs = store.runs();
        let decided = vec![
            entity(EntityType::Person, "钟千山"),
            entity(EntityType::Person, "钟爷"),
        ];
        let out = recognizer().bind_title_forms(decided, &runs);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].count, 6);
        assert!(out[0].evidence.contains("form"));
    }

    #[test]
    fn faction_forms_merge_into_the_faction() {
        let decided = vec![
            entity(EntityType::Faction, "秦"),
            entity(EntityType::Faction, "大秦"),
            entity(EntityType::Faction, "秦国"),
            entity(EntityType::Faction, "大夏"),
            entity(EntityType::Army, "秦军"),
        ];
        let got = merged(&recognizer().merge_faction_forms(decided));
        let want: BTreeSet<(String, Vec<String>)> = [
            ("秦", vec!["大秦", "秦国"]),
            ("大夏", vec![]),
            ("秦军", vec![]),
        ]
        .iter()
        .map(|(n, a)| (n.to_string(), a.iter().map(|s| s.to_string()).collect()))
        .collect();
        assert_eq!(got, want);
    }
}
