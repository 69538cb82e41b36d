//! Foreign names: transliterated names (哈里森, 麦克莱恩, 娜塔莎) start with
//! no surname, so the candidate rules seldom propose them, and the learned
//! model, trained on Chinese names, refuses those they do (a Western
//! setting's hero, 40 mentions: `none` 0.99). Their characters tell them: `dict/translit_chars.tsv` scores how much more often jieba's
//! dictionary uses each character in its transliterated names (nrt) than
//! in words at large.

use super::forms::merge_into;
use super::resolve::count_in;
use super::*;

/// Longest foreign name read, in characters (艾森豪威尔).
const FOREIGN_MAX: usize = 6;

/// Mean log-odds of a foreign name's characters (`dict/translit_chars.tsv`:
/// every character there scores at least 1.0, about 2.7 times as common in
/// transliterations as in words).
const FOREIGN_MEAN: f32 = 1.8;

/// Times a foreign name must be said with clean edges.
const FOREIGN_MIN: u32 = 3;

/// A foreign name must be said as a person (`name_context`) at least once
/// in this many clean mentions: a protagonist is mostly the subject of
/// verbs no cue list holds (睁开, 望向), and the characters already say
/// the string is a name.
const FOREIGN_PERSON_SHARE: u32 = 6;

/// The dots that join a foreign given name and family name (克洛维斯·莫尔森).
const NAME_DOTS: [char; 5] = ['·', '•', '・', '‧', '．'];

/// Foreign names of three characters or more a book must have for its
/// two-character ones to count.
const FOREIGN_BOOK: usize = 2;

impl Recognizer {
    /// Foreign family names written before a rank of a foreign army only
    /// (`foreign` in dict/titles.txt: 柯原少佐, 石野军曹): the two
    /// characters before the rank are a person, whom the book also calls
    /// by them alone, though no surname list holds them and their last
    /// character may end a place (X村, X野). They hold no function
    /// character, numeral, pronoun or demonstrative, are no common word
    /// (日本|少佐), title, generic word or army word, and end no longer
    /// decided person (山本一郎|少佐), nor a family name of the surname
    /// list (山本少佐 is bound to its person as a title form). A decided
    /// entity of another type under that name becomes the person.
    pub(super) fn add_ranked_foreigners(&self, mut all: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        let ranks = &self.lex.foreign_ranks;
        if ranks.is_empty() {
            return all;
        }
        let ac = runs.matcher(
            ranks.iter().map(String::as_str),
            aho_corasick::MatchKind::LeftmostLongest,
        );
        let persons: Vec<&str> = all
            .iter()
            .filter(|d| d.kind == EntityType::Person)
            .map(|d| d.name.as_str())
            .collect();
        let mut forms: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for m in runs.find_all(&ac) {
            let run = runs.at(m.run as usize);
            let before = &run.text[..m.start as usize];
            let chars: Vec<char> = before.chars().rev().take(2).collect();
            let [b, a] = chars[..] else { continue };
            let name: String = [a, b].iter().collect();
            let ok_char = |c: char| {
                corpus::is_han(c)
                    && !self.is_function_char(c)
                    && !self.numerals.contains(&c)
                    && !self.chars.pronoun.contains(&c)
                    && !self.chars.demonstrative.contains(&c)
            };
            let longer =
                |p: &str| p.len() > name.len() && p.ends_with(name.as_str()) && before.ends_with(p);
            if !(ok_char(a) && ok_char(b))
                || self.is_generic(&name)
                || self.titles.contains_key(name.as_str())
                || self.army_suffix(&name).is_some()
                || self.is_frequent_word(&name, 100)
                || persons.iter().any(|p| longer(p))
                // 山本少佐: a listed family name's forms are bound to
                // its person by the title-form passes.
                || self.lex.surnames.contains_key(&name)
            {
                continue;
            }
            let rank = &run.text[m.start as usize..m.end as usize];
            forms
                .entry(name.clone())
                .or_default()
                .insert(format!("{name}{rank}"));
        }
        if forms.is_empty() {
            return all;
        }
        let names: Vec<String> = forms.keys().cloned().collect();
        let counts = count_in(&names, runs);
        for (name, n) in names.into_iter().zip(counts) {
            let ranked = forms.remove(&name).unwrap_or_default();
            // The place or other entity under the name is the person.
            all.retain(|d| d.name != name || d.kind == EntityType::Person);
            match all.iter_mut().find(|d| d.name == name) {
                Some(d) => {
                    d.evidence.insert("rank");
                    d.aliases.extend(ranked);
                }
                None => {
                    let mut d = decided_owned(name, EntityType::Person, 0.7, &["rank"], n);
                    d.aliases = ranked;
                    all.push(d);
                }
            }
        }
        all
    }

    /// Persons named by a run of transliteration characters of two to
    /// `FOREIGN_MAX` whose mean score is at least `FOREIGN_MEAN`, said
    /// `FOREIGN_MIN` times with no word across either edge, mostly so, one
    /// in `FOREIGN_PERSON_SHARE` of those (and twice) as a person and more
    /// often than after a movement cue (`name_context`); not a dictionary
    /// word other than a name, nor part of a decided name or holding one,
    /// nor mostly said inside a longer such name (里森 of 哈里森). Names of
    /// two characters (布朗) count only in a book with `FOREIGN_BOOK`
    /// foreign names of three or more. Such a run and a place suffix after
    /// it (维尔斯堡, 维尔斯城), said so and seldom as a person, is a place.
    pub(super) fn add_foreign_names(&self, mut all: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        let translit = &self.lex.translit_chars;
        if translit.is_empty() {
            return all;
        }
        let place_suffix = |c: char| {
            self.lex
                .place_suffixes
                .get(c.encode_utf8(&mut [0; 4]) as &str)
                .is_some_and(|p| p.weight >= 2)
        };
        let seen = self.tally_contexts(runs, |run, report| {
            let n = run.len();
            let clean = |a: usize, b: usize| {
                !((a > 0 && self.vocab.has_word(run.sub(a - 1, a + 1)))
                    || (a > 1 && self.vocab.has_word(run.sub(a - 2, a + 1)))
                    || (b < n && self.vocab.has_word(run.sub(b - 1, b + 1)))
                    || (b + 1 < n && self.vocab.has_word(run.sub(b - 1, b + 2))))
            };
            let mut i = 0;
            while i < n {
                if !translit.contains_key(&run.ch(i)) {
                    i += 1;
                    continue;
                }
                let mut j = i;
                while j < n && translit.contains_key(&run.ch(j)) {
                    j += 1;
                }
                for a in i..j {
                    let mut sum = 0.0;
                    for b in a + 1..=j.min(a + FOREIGN_MAX) {
                        sum += translit[&run.ch(b - 1)];
                        if b - a < 2 || sum / ((b - a) as f32) < FOREIGN_MEAN {
                            continue;
                        }
                        report(a, b, clean(a, b));
                        // 维尔斯城: the run and a place suffix after it.
                        if b == j && b < n && place_suffix(run.ch(b)) {
                            report(a, b + 1, clean(a, b + 1));
                        }
                    }
                }
                i = j;
            }
        });
        let known = NameParts::new(
            all.iter()
                .flat_map(|d| std::iter::once(&d.name).chain(d.aliases.iter()))
                .map(String::as_str),
        );
        // A place: the stem before a place suffix is at least two characters.
        let is_place = |w: &str| {
            let chars: Vec<char> = w.chars().collect();
            chars.len() >= 3 && place_suffix(chars[chars.len() - 1])
        };
        let kept: Vec<(&str, u32, EntityType)> = seen
            .iter()
            .filter(|(w, &[total, clean, _, _])| {
                clean >= FOREIGN_MIN
                    && 2 * clean > total
                    && !known.in_one(w)
                    && !known.holds_one(w)
                    && !self.is_generic(w)
                    && !self.is_plain_word(w)
            })
            .filter_map(|(&w, &[total, clean, person, moved])| {
                if is_place(w) && 3 * person < clean {
                    Some((w, total, EntityType::Place))
                } else if FOREIGN_PERSON_SHARE * person >= clean && person >= 2 && person > moved {
                    Some((w, total, EntityType::Person))
                } else {
                    None
                }
            })
            .collect();
        // Two characters read as a name by chance in any book (勒马, 约莫):
        // only in a book that has foreign names of three or more.
        let long_foreign = |w: &str| {
            w.chars().count() >= 3
                && w.chars().all(|c| translit.contains_key(&c))
                && w.chars().map(|c| translit[&c]).sum::<f32>() / w.chars().count() as f32
                    >= FOREIGN_MEAN
        };
        let long_names = all
            .iter()
            .filter(|d| d.kind == EntityType::Person)
            .map(|d| d.name.as_str())
            .chain(
                kept.iter()
                    .filter(|k| k.2 == EntityType::Person)
                    .map(|k| k.0),
            )
            .filter(|w| long_foreign(w))
            .count();
        let found: Vec<Decided> = kept
            .iter()
            .filter(|(w, _, _)| {
                let chars: Vec<char> = w.chars().collect();
                chars.len() >= 3 || (long_names >= FOREIGN_BOOK && chars[0] != chars[1])
            })
            .filter(|(w, total, _)| {
                !kept.iter().any(|(v, n, _)| {
                    v.len() > w.len() && v.contains(*w) && *total < n + FOREIGN_MIN
                })
            })
            .map(|(w, total, kind)| Decided {
                name: w.to_string(),
                kind: *kind,
                score: 0.5,
                evidence: std::iter::once("foreign").collect(),
                aliases: BTreeSet::new(),
                count: *total,
            })
            .collect();
        all.extend(found);
        all
    }

    /// Full foreign names written with a dot (克洛维斯·莫尔森): the runs
    /// split them, so the given name and the family name are read apart.
    /// The full name becomes the alias of the person before the dot (its
    /// commonest writing); the part after the dot, when it is a person of
    /// its own that follows only this one person's name, is that person
    /// (a family name two siblings share stays apart).
    pub(super) fn bind_dotted_names(&self, decided: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        let persons: BTreeMap<&str, usize> = decided
            .iter()
            .enumerate()
            .filter(|(_, d)| d.kind == EntityType::Person)
            .map(|(i, d)| (d.name.as_str(), i))
            .collect();
        if persons.is_empty() {
            return decided;
        }
        // The longest person name a string ends with (or starts with).
        let longest = |text: &str, at_end: bool| -> Option<&str> {
            let chars: Vec<(usize, char)> = text.char_indices().collect();
            (2..=chars.len().min(8)).rev().find_map(|len| {
                let part = if at_end {
                    &text[chars[chars.len() - len].0..]
                } else {
                    chars.get(len).map_or(text, |&(b, _)| &text[..b])
                };
                persons.get_key_value(part).map(|(k, _)| *k)
            })
        };
        // (person before, what follows the dot, the dot) → times.
        let mut pairs: BTreeMap<(usize, String, char), u32> = BTreeMap::new();
        let mut previous: Option<Run> = None;
        for run in runs.iter() {
            let before = previous.replace(run);
            let Some(prev) = before.filter(|p| p.chapter == run.chapter) else {
                continue;
            };
            let dot = run.before;
            if !NAME_DOTS.contains(&dot) || prev.after != dot {
                continue;
            }
            // Only the dot between the two runs.
            let gap = runs.text_before(&run);
            if !gap.ends_with(&format!("{}{dot}", prev.text)) {
                continue;
            }
            let Some(given) = longest(prev.text, true) else {
                continue;
            };
            let family = longest(run.text, false).map(str::to_string).or_else(|| {
                let n = run.len();
                let span = (0..n)
                    .take_while(|&i| self.lex.translit_chars.contains_key(&run.ch(i)))
                    .count()
                    .min(FOREIGN_MAX);
                (span >= 2).then(|| run.sub(0, span).to_string())
            });
            if let Some(family) = family {
                *pairs.entry((persons[given], family, dot)).or_default() += 1;
            }
        }
        if pairs.is_empty() {
            return decided;
        }
        // Who each family name follows.
        let mut follows: BTreeMap<&str, BTreeSet<usize>> = BTreeMap::new();
        for (who, family, _) in pairs.keys() {
            follows.entry(family.as_str()).or_default().insert(*who);
        }
        let mut full: BTreeMap<usize, (u32, String)> = BTreeMap::new();
        let mut bind: Vec<(usize, usize)> = Vec::new();
        for ((who, family, dot), &n) in &pairs {
            let name = format!("{}{dot}{family}", decided[*who].name);
            let best = full.entry(*who).or_insert((0, String::new()));
            if n > best.0 {
                *best = (n, name);
            }
            if let Some(&f) = persons.get(family.as_str()) {
                if follows[family.as_str()].len() == 1 && f != *who && !bind.contains(&(f, *who)) {
                    bind.push((f, *who));
                }
            }
        }
        let mut decided = decided;
        for (who, (_, name)) in full {
            decided[who].aliases.insert(name);
            decided[who].evidence.insert("dotted");
        }
        merge_into(decided, &bind, "dotted")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::corpus::RunStore;

    fn ranked(text: &str, decided: Vec<Decided>) -> Vec<(String, EntityType, Vec<String>)> {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        let store = RunStore::new(&[text]);
        let mut out: Vec<_> = r
            .add_ranked_foreigners(decided, &store.runs())
            .into_iter()
            .map(|d| (d.name, d.kind, d.aliases.into_iter().collect()))
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    #[test]
    fn a_family_name_before_a_foreign_rank_is_a_person() {
        // Names no surname list holds; 柯村 ends like a village.
        let text = "柯村少佐拔出刀来。石野军曹跟在后面。柯村骂了一声，石野不敢作声。";
        let village = decided_owned("柯村".into(), EntityType::Place, 0.6, &["sfx"], 2);
        let got = ranked(text, vec![village]);
        assert_eq!(
            got,
            [
                (
                    "柯村".to_string(),
                    EntityType::Person,
                    vec!["柯村少佐".to_string()]
                ),
                (
                    "石野".to_string(),
                    EntityType::Person,
                    vec!["石野军曹".to_string()]
                ),
            ]
        );
    }

    #[test]
    fn no_person_from_a_rank_after_a_word_a_numeral_or_a_longer_name() {
        let person = decided_owned("山田一雄".into(), EntityType::Person, 0.9, &["sur"], 2);
        for text in [
            "日本少佐来了。",     // a common word
            "来了一名少佐。",     // a numeral and a classifier
            "那个少佐来了。",     // a demonstrative
            "日军少佐来了。",     // an army word
            "山田一雄少佐来了。", // the tail of a decided person
            "山本少佐来了。",     // a listed family name
        ] {
            let got = ranked(text, vec![person.clone()]);
            assert_eq!(got.len(), 1, "{text}: {got:?}");
        }
    }
}
