//! Names the learned tagger reads in their sentences: a candidate said at
//! most `TAGGED_MAX_COUNT` times, left undecided by the rules and not
//! refused by the candidate model (its book-level statistics say little),
//! becomes a person or a place when the tagger (`entity::tagger`) reads it
//! as a whole name of that type, with its boundaries, at more than half of
//! its occurrences. A rare place the rules took with a verb glued on is
//! dropped when the tagger reads another place across it instead (寇瓜州).
//! In a chapter-sized text the tagger also proposes: a string it reads as
//! a name twice that no rule proposed (太宗依奏) is judged the same way.

use super::{decided, decided_owned, Decided, Measured, Recognizer, Runs, SHORT_TEXT};
use crate::entity::tagger::{SpanKind, Tagger};
use crate::entity::EntityType;
use rayon::prelude::*;
use std::collections::{BTreeSet, HashSet};

/// Candidates said more often than this are the candidate model's to judge.
pub(super) const TAGGED_MAX_COUNT: u32 = 2;

/// jieba's corpus frequency from which a word is common (the rules' figure
/// for a common word inside a name, 明日早).
pub(super) const COMMON_WORD_FREQ: usize = 100;

/// jieba's corpus frequency from which a name read together with the two
/// characters after it is a set phrase (崇山峻岭).
pub(super) const SET_PHRASE_FREQ: usize = 20;

/// Times the tagger must read a string it proposes (in a chapter-sized
/// text) as a name of one type.
pub(super) const PROPOSED_MIN: u32 = 2;

/// Whether a string the tagger read `reads` times, before `next_chars`
/// distinct characters, may be proposed: read at least `PROPOSED_MIN`
/// times, and not three times or more always before the same character
/// (铁华|车: a piece of a longer word).
pub(super) fn proposable(reads: u32, next_chars: usize) -> bool {
    reads >= PROPOSED_MIN && (reads < 3 || next_chars > 1)
}

/// Given-name occurrences per use as a word in jieba's corpus from which
/// a character may end a clipped name (`given_name_char`).
pub(super) const CLIPPED_GIVEN_SHARE: f64 = 0.006;

/// Share of a candidate's occurrences the tagger must mark as the name.
pub(super) const TAGGED_SHARE: f64 = 0.5;

/// The verdict from tagger hits: (person hits, place hits) over `count`
/// occurrences. The type with more hits, when it has more than `TAGGED_SHARE`
/// of them.
pub(super) fn tagged_kind(hits: [u32; 2], count: u32) -> Option<EntityType> {
    let (kind, n) = if hits[0] >= hits[1] {
        (EntityType::Person, hits[0])
    } else {
        (EntityType::Place, hits[1])
    };
    (n > 0 && n as f64 > TAGGED_SHARE * count as f64).then_some(kind)
}

/// Whether the tagger re-cuts a place the rules decided: at more than
/// half of its occurrences it reads another place across it, and never
/// the place itself. `read` is `[person, place, seen, other place]`.
pub(super) fn recut_by(read: [u32; 4]) -> bool {
    read[1] == 0 && read[3] as f64 > TAGGED_SHARE * read[2] as f64
}

impl Recognizer {
    /// A function word (jieba: pronoun, adverb, preposition, conjunction,
    /// particle, numeral or classifier) + a place suffix: 甚么|寺. A noun
    /// stem is fine (桃花|村).
    pub(super) fn function_word_and_suffix(&self, w: &str) -> bool {
        let Some((l, _, _)) = self.place_suffix(w) else {
            return false;
        };
        let stem: String = w.chars().take(w.chars().count() - l).collect();
        matches!(
            self.vocab.tag(&stem).as_str(),
            "r" | "d" | "p" | "c" | "u" | "m" | "q"
        )
    }

    /// Adds the undecided rare candidates the tagger reads as names
    /// (evidence `tag`) and drops the rare places it re-cuts.
    pub(super) fn add_tagged(
        &self,
        mut first: Vec<Decided>,
        runs: &Runs,
        m: &Measured,
        refused: &HashSet<&str>,
        model_refuses: &(dyn Fn(&str) -> bool + Sync),
    ) -> Vec<Decided> {
        let Some(tagger) = &self.tagger else {
            return first;
        };
        let known: HashSet<&str> = first.iter().map(|d| d.name.as_str()).collect();
        // Places the rules decided that the tagger may re-cut (寇瓜州).
        let recut: Vec<String> = first
            .iter()
            .filter(|d| {
                d.kind == EntityType::Place
                    && d.count <= TAGGED_MAX_COUNT
                    && !d.evidence.contains("lex")
            })
            .map(|d| d.name.clone())
            .collect();
        let mut words: Vec<&str> = m
            .words
            .iter()
            .zip(&m.stats)
            .filter(|&(w, st)| {
                !st.aux
                    && (1..=TAGGED_MAX_COUNT).contains(&st.count)
                    && (2..=4).contains(&w.chars().count())
                    && !known.contains(w)
                    && !refused.contains(w)
                    && !self.is_generic(w)
                    && !self.lex.factions.contains(*w)
            })
            .map(|(&w, _)| w)
            .chain(recut.iter().map(String::as_str))
            .collect();
        // In a chapter-sized text the tagger also proposes: a name the
        // rules never proposed (太宗依奏: no surname, no cue right after)
        // is read in its sentences.
        let proposed = if m.total_chars < SHORT_TEXT {
            self.tagger_proposals(tagger, runs, &known, refused, m)
        } else {
            Vec::new()
        };
        words.extend(proposed.iter().map(String::as_str));
        if words.is_empty() {
            return first;
        }
        words.sort_unstable();
        words.dedup();
        let reads = self.tagger_reads(tagger, &words, runs);
        let recut_by_tagger: HashSet<String> = words
            .iter()
            .zip(&reads)
            .filter(|(w, r)| known.contains(**w) && recut_by(**r))
            .map(|(w, _)| w.to_string())
            .collect();
        let added: Vec<Decided> = words
            .iter()
            .zip(reads)
            .filter(|(w, _)| !known.contains(**w))
            .filter_map(|(&w, [person, place, seen, _])| {
                let kind = tagged_kind([person, place], seen)?;
                // 丘陵, 通天: a common word needs more than the tagger's
                // reading; a name jieba knows that the tagger proposed in a
                // chapter (太宗 nrt) does not.
                if self.is_frequent_word(w, COMMON_WORD_FREQ)
                    && (self.is_plain_word(w) || !proposed.iter().any(|p| p == w))
                {
                    return None;
                }
                if kind == EntityType::Person
                    && (self.function_word_pair(w)
                        || self.lex.places.contains(w)
                        || self.title_form(w)
                        || self.pronoun_phrase(w))
                {
                    return None;
                }
                // 甚么寺: a function word + a place suffix is no name.
                if kind == EntityType::Place && self.function_word_and_suffix(w) {
                    return None;
                }
                if model_refuses(w) {
                    return None;
                }
                let hits = if kind == EntityType::Person {
                    person
                } else {
                    place
                };
                let score = hits as f64 / seen as f64;
                Some(match m.stat(w) {
                    Some(st) if !st.aux => decided(w, kind, score, &["tag"], st),
                    _ => decided_owned(w.to_string(), kind, score, &["tag"], seen),
                })
            })
            .collect();
        let mut added = self.extend_clipped_names(added, runs, &known);
        first.retain(|d| !recut_by_tagger.contains(&d.name));
        first.append(&mut added);
        first.sort_by(|a, b| a.name.cmp(&b.name).then(a.kind.cmp(&b.kind)));
        first
    }

    /// A surname + one character the tagger alone read as a person, whose
    /// every mention is followed by the same character that may end a
    /// name (`taken_next_char`: 韩德|胜处, 柯北|溟): the tagger stopped one
    /// character short of a three-character name, which takes its place
    /// (evidence `clip`), unless the three characters are a word or a
    /// place (X|镇). A cue, a function character or a numeral after the
    /// name ends it where the tagger did (韩泽|奏道, 柯拯|等).
    fn extend_clipped_names(
        &self,
        added: Vec<Decided>,
        runs: &Runs,
        known: &HashSet<&str>,
    ) -> Vec<Decided> {
        let clipped: Vec<&str> = added
            .iter()
            .filter(|d| {
                let chars: Vec<char> = d.name.chars().collect();
                d.kind == EntityType::Person
                    && d.evidence.len() == 1
                    && chars.len() == 2
                    && self.surname(&chars, &d.name).is_some_and(|(l, _)| l == 1)
            })
            .map(|d| d.name.as_str())
            .collect();
        if clipped.is_empty() {
            return added;
        }
        let ac = runs.matcher(&clipped, aho_corasick::MatchKind::Standard);
        // Per clipped name: what each mention says of the character after
        // it (`taken_next_char`).
        let mut next: Vec<BTreeSet<Option<char>>> = vec![BTreeSet::new(); clipped.len()];
        for hit in runs.find_all(&ac) {
            let run = runs.at(hit.run as usize);
            next[hit.pattern as usize].insert(self.taken_next_char(run.text, hit.end as usize));
        }
        let longer: std::collections::HashMap<String, String> = clipped
            .iter()
            .zip(&next)
            .filter_map(|(&w, after)| {
                let [Some(c)] = after.iter().copied().collect::<Vec<_>>()[..] else {
                    return None;
                };
                let long = format!("{w}{c}");
                (!self.vocab.has_word(&long)
                    && self.place_suffix(&long).is_none_or(|(l, _, _)| l > 1))
                .then_some((w.to_string(), long))
            })
            .collect();
        added
            .into_iter()
            .filter_map(|mut d| match longer.get(d.name.as_str()) {
                None => Some(d),
                Some(long) if known.contains(long.as_str()) => None,
                Some(long) => {
                    d.name = long.clone();
                    d.evidence.insert("clip");
                    Some(d)
                }
            })
            .collect()
    }

    /// The character after a clipped name that ends at byte `end` of
    /// `text`, when it may be the name's last: a character given names
    /// hold (`given_name_char`), no function character, numeral or cue,
    /// that starts no common word with the character after it (柯珂|镇守),
    /// is no verb before an aspect particle (韩爵|立了), and neither it
    /// nor the name's last character begins a title (韩总|兵: 总兵).
    fn taken_next_char(&self, text: &str, end: usize) -> Option<char> {
        let rest = &text[end..];
        let mut chars = rest.chars();
        let c = chars.next()?;
        let d = chars.next();
        let after_c = end + c.len_utf8();
        let plain = self.is_function_char(c)
            || self.numerals.contains(&c)
            || self.cues.contains_key(c.encode_utf8(&mut [0; 4]) as &str)
            || !self.given_name_char(c)
            || d.is_some_and(|d| {
                self.chars.aspect.contains(&d)
                    || self.is_frequent_word(&format!("{c}{d}"), COMMON_WORD_FREQ)
            })
            || self.ends_inside_title(&text[..after_c], &text[after_c..])
            || self.ends_inside_title(&text[..end], rest);
        (!plain).then_some(c)
    }

    /// Whether given names (`dict/given_name_chars.tsv`) hold a character
    /// at least `CLIPPED_GIVEN_SHARE` times as often as jieba's corpus uses
    /// it as a word of its own (胜, 魁, 栓 yes; 年, 好, 那 no).
    fn given_name_char(&self, c: char) -> bool {
        let in_names = self.lex.given_name_chars.get(&c).copied().unwrap_or(0) as f64;
        let as_word = self.word_info(&c.to_string()).map_or(0, |i| i.freq) as f64;
        in_names >= CLIPPED_GIVEN_SHARE * as_word.max(1.0)
    }

    /// Strings of two to four characters the tagger reads as a name, of
    /// one type, at least `PROPOSED_MIN` times, that the rules never
    /// proposed (or only counted as part of a candidate), or proposed and
    /// left undecided though said more than `TAGGED_MAX_COUNT` times (the
    /// model does not judge a text this short), and that the model does
    /// not refuse: no decided name, not inside one nor holding one, and
    /// not a surname alone (公孙).
    fn tagger_proposals(
        &self,
        tagger: &Tagger,
        runs: &Runs,
        known: &HashSet<&str>,
        refused: &HashSet<&str>,
        m: &Measured,
    ) -> Vec<String> {
        // Per (string, type): times read, and the characters read after it.
        type Reads = std::collections::BTreeMap<(String, SpanKind), (u32, BTreeSet<char>)>;
        let reads: Reads = runs
            .slices()
            .par_iter()
            .map(|part| {
                let mut local = Reads::new();
                for run in part.iter() {
                    let chars = run.chars();
                    for (a, b, kind) in tagger.spans(&chars, run.before, run.after, &self.hints) {
                        if (2..=4).contains(&(b - a)) {
                            let cell = local.entry((run.sub(a, b).to_string(), kind)).or_default();
                            cell.0 += 1;
                            cell.1.insert(chars.get(b).copied().unwrap_or(run.after));
                        }
                    }
                }
                local
            })
            .reduce(Reads::new, |mut a, b| {
                for (k, (n, next)) in b {
                    let cell = a.entry(k).or_default();
                    cell.0 += n;
                    cell.1.extend(next);
                }
                a
            });
        let mut out: Vec<String> = reads
            .into_iter()
            .filter(|(_, (n, next))| proposable(*n, next.len()))
            .map(|((w, _), _)| w)
            .filter(|w| {
                m.stat(w)
                    .is_none_or(|st| st.aux || st.count > TAGGED_MAX_COUNT)
                    && !refused.contains(w.as_str())
                    && !known
                        .iter()
                        .any(|k| k.contains(w.as_str()) || w.contains(k))
                    && !self.surnames.contains_key(w.as_str())
                    && !self.is_generic(w)
                    && !self.lex.factions.contains(w.as_str())
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// A surname + title or form of address (柯员外): the title forms'
    /// business (`forms`), never a name of its own.
    pub(super) fn title_form(&self, w: &str) -> bool {
        let chars: Vec<char> = w.chars().collect();
        self.surname(&chars, w)
            .is_some_and(|(sl, _)| sl < chars.len() && self.title_after_surname(&chars[sl..]))
    }

    /// Whether a name boundary between `head` and `tail` would split a
    /// common word (孟先|生, 西厢|房, 进|退维谷): the characters either side
    /// make a frequent dictionary word, and the one after the name is no
    /// cue of its own (苏安人|道 is a name and a speech cue, not 人道).
    /// `starts`: the boundary is the name's start.
    fn splits_word(&self, head: &str, tail: &str, starts: bool) -> bool {
        let (Some(last), Some(next)) = (head.chars().next_back(), tail.chars().next()) else {
            return false;
        };
        // A cue after the name is read as a cue (苏安人|道); one before it
        // is not (对|方派 is 对方, though 对 is a cue of address).
        let mut buf = [0u8; 4];
        if !starts && self.cues.contains_key(next.encode_utf8(&mut buf) as &str) {
            return false;
        }
        let pair: String = [last, next].iter().collect();
        self.is_frequent_word(&pair, COMMON_WORD_FREQ)
    }

    /// Whether a name ending at the boundary between `head` and `tail`
    /// ends inside a title: its last character and the next one or two
    /// make a title of `dict/titles.txt` (潘招|讨: 招讨 is a title, the name
    /// is 潘 and the title 招讨).
    fn ends_inside_title(&self, head: &str, tail: &str) -> bool {
        let Some(last) = head.chars().next_back() else {
            return false;
        };
        let mut t = String::from(last);
        tail.chars().take(2).any(|c| {
            t.push(c);
            self.titles.contains_key(&t)
        })
    }

    /// Whether the name read at the start of `text` (`len` bytes) and the
    /// next two characters make a dictionary word (崇山|峻岭): a word in a
    /// set phrase, not a name. Rarer words than `COMMON_WORD_FREQ` count:
    /// set phrases of four characters are rare in jieba's corpus.
    fn runs_on_into_word(&self, text: &str, len: usize) -> bool {
        let mut end = len;
        for c in text[len..].chars().take(2) {
            end += c.len_utf8();
        }
        end > len
            && text[len..end].chars().count() == 2
            && self.is_frequent_word(&text[..end], SET_PHRASE_FREQ)
    }

    /// Per word: the occurrences the tagger reads as that person, as that
    /// place, all its occurrences, and those where it reads another place
    /// across it (瓜州 in 寇瓜州). Only the runs that hold a word are tagged,
    /// each once, per slice of the book in parallel.
    fn tagger_reads(&self, tagger: &Tagger, words: &[&str], runs: &Runs) -> Vec<[u32; 4]> {
        let ac = aho_corasick::AhoCorasick::new(words).expect("candidates build an automaton");
        runs.slices()
            .par_iter()
            .map(|part| {
                let mut local = vec![[0u32; 4]; words.len()];
                for run in part.iter() {
                    let mut spans = None;
                    for mt in ac.find_overlapping_iter(run.text) {
                        let spans = spans.get_or_insert_with(|| {
                            tagger.spans(&run.chars(), run.before, run.after, &self.hints)
                        });
                        let i = run.off.partition_point(|&o| (o as usize) < mt.start());
                        let j = run.off.partition_point(|&o| (o as usize) < mt.end());
                        let cell = &mut local[mt.pattern().as_usize()];
                        cell[2] += 1;
                        let (head, tail) = run.text.split_at(mt.end());
                        let split = self.splits_word(head, tail, false)
                            || self.ends_inside_title(head, tail)
                            || self
                                .runs_on_into_word(&run.text[mt.start()..], mt.end() - mt.start())
                            || self.inside_set_phrase(run.text, mt.start(), mt.end())
                            || self.splits_word(
                                &run.text[..mt.start()],
                                &run.text[mt.start()..],
                                true,
                            );
                        for &(a, b, kind) in spans.iter() {
                            if (a, b) == (i, j) && !split {
                                cell[usize::from(kind == SpanKind::Place)] += 1;
                            } else if kind == SpanKind::Place && a < j && b > i {
                                cell[3] += 1;
                            }
                        }
                    }
                }
                local
            })
            .reduce(
                || vec![[0u32; 4]; words.len()],
                |mut a, b| {
                    for (x, y) in a.iter_mut().zip(b) {
                        for k in 0..4 {
                            x[k] += y[k];
                        }
                    }
                    a
                },
            )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_tagger_reads_invented_names_in_context() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        let tagger = r.tagger.as_ref().expect("a built-in tagger");
        // (run, separator before, after, the span it must read)
        type Case = (&'static str, char, char, (usize, usize, SpanKind));
        let table: [Case; 4] = [
            ("韩松道", '\n', '：', (0, 2, SpanKind::Person)),
            ("只见韩青大喝一声", '”', '。', (2, 4, SpanKind::Person)),
            ("萧远拍马来战林风", '。', '。', (0, 2, SpanKind::Person)),
            ("来到柳州城中", '。', '，', (2, 5, SpanKind::Place)),
        ];
        for (run, before, after, want) in table {
            let chars: Vec<char> = run.chars().collect();
            let spans = tagger.spans(&chars, before, after, &r.hints);
            assert!(spans.contains(&want), "{run}: {spans:?}");
        }
    }

    #[test]
    fn a_reading_that_splits_a_common_word_is_none() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        // (text before the boundary, after it, a name starts there, splits)
        let table = [
            ("只见韩千先", "生来了", false, true),
            ("柯北辰", "道：", false, false),
            ("柯北辰", "", false, false),
            ("柯北", "辰道", false, false),
            ("进", "退维谷", true, true),
            ("命", "柯北辰", true, false),
            // a cue before the name does not excuse the word it makes
            ("就算对", "方北辰", true, true),
        ];
        for (head, tail, starts, want) in table {
            assert_eq!(r.splits_word(head, tail, starts), want, "{head}|{tail}");
        }
    }

    #[test]
    fn a_reading_that_ends_inside_a_title_is_none() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        // (text before the boundary, after it, ends inside a title)
        let table = [
            ("韩招", "讨领兵", true),
            ("韩千山", "招讨", false),
            ("柯北辰", "道：", false),
            ("柯北", "辰道", false),
            // a place read with the first character of the magistrate's
            // title after it (X县|县主 is X县, then 县主)
            ("柯北县县", "主韩千山", true),
        ];
        for (head, tail, want) in table {
            assert_eq!(r.ends_inside_title(head, tail), want, "{head}|{tail}");
        }
    }

    #[test]
    fn a_clipped_name_takes_the_next_character_by_table() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        // (text, byte end of the clipped name, the character it takes)
        let table: [(&str, &str, Option<char>); 9] = [
            ("守备韩德胜处", "守备韩德", Some('胜')),
            ("先父柯北溟死在", "先父柯北", Some('溟')),
            ("韩占魁。", "韩占", Some('魁')),
            // a cue, a function character: the name ends there
            ("韩泽奏道", "韩泽", None),
            ("柯拯等上疏", "柯拯", None),
            // a verb before an aspect particle
            ("韩爵立了盟书", "韩爵", None),
            // a common word across the boundary
            ("柯珂镇守城池", "柯珂", None),
            // the start of a title (总兵)
            ("韩总兵到了", "韩总", None),
            // a character given names seldom hold
            ("韩青好了", "韩青", None),
        ];
        for (text, head, want) in table {
            assert_eq!(r.taken_next_char(text, head.len()), want, "{text}");
        }
    }

    #[test]
    fn given_name_characters_by_table() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        for (c, want) in [
            ('胜', true),
            ('魁', true),
            ('栓', true),
            ('年', false),
            ('好', false),
            ('那', false),
        ] {
            assert_eq!(r.given_name_char(c), want, "{c}");
        }
    }

    #[test]
    fn recut_places_by_table() {
        // ([person, place, seen, another place across it], re-cut)
        let table: [([u32; 4], bool); 5] = [
            ([0, 0, 1, 1], true),
            ([0, 0, 2, 2], true),
            ([0, 0, 2, 1], false),
            ([0, 1, 2, 1], false),
            ([0, 0, 1, 0], false),
        ];
        for (read, want) in table {
            assert_eq!(recut_by(read), want, "{read:?}");
        }
    }

    #[test]
    fn a_function_word_and_a_place_suffix_is_no_tagged_place() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        for (w, want) in [
            ("甚么寺", true),
            ("两京", true),
            ("桃花村", false),
            ("钟家庄", false),
            ("青石关", false),
        ] {
            assert_eq!(r.function_word_and_suffix(w), want, "{w}");
        }
    }

    #[test]
    fn in_a_chapter_the_tagger_proposes_names_the_rules_never_took() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        let persons = |text: &str| -> Vec<String> {
            r.discover(&[text])
                .entities()
                .iter()
                .filter(|e| e.kind == EntityType::Person)
                .map(|e| e.name.clone())
                .collect()
        };
        // No surname, no cue right after: only the tagger reads 靖宗.
        let text = "靖宗看罢奏章，沉吟半晌。靖宗依奏，即命退朝。群臣奏知靖宗，靖宗大喜。";
        assert!(
            persons(text).contains(&"靖宗".to_string()),
            "{:?}",
            persons(text)
        );
        // Read once, it is not enough.
        let once = "靖宗看罢奏章，沉吟半晌。群臣退朝。";
        assert!(!persons(once).contains(&"靖宗".to_string()));
    }

    #[test]
    fn tagger_proposals_by_table() {
        // (times read, distinct characters after it, proposable)
        for (reads, next, want) in [
            (1, 1, false),
            (2, 1, true),
            (2, 2, true),
            (3, 1, false),
            (8, 1, false),
            (3, 2, true),
        ] {
            assert_eq!(proposable(reads, next), want, "{reads} reads, {next} after");
        }
    }

    #[test]
    fn tagged_kinds_by_table() {
        // (person hits, place hits, count, verdict)
        let table: [([u32; 2], u32, Option<EntityType>); 6] = [
            ([1, 0], 1, Some(EntityType::Person)),
            ([0, 1], 1, Some(EntityType::Place)),
            ([1, 0], 2, None),
            ([2, 1], 3, Some(EntityType::Person)),
            ([1, 2], 4, None),
            ([0, 0], 1, None),
        ];
        for (hits, count, want) in table {
            assert_eq!(tagged_kind(hits, count), want, "{hits:?} of {count}");
        }
    }
}
