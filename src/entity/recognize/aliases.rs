//! Aliases: alias lists (built-in lines only for books that name the
//! canonical entity, the user's always), courtesy names the text states,
//! names stated as 姓X名Y, and given names said alone as a vocative.

use super::*;

/// Times a given name must stand alone between punctuation (清欢，你…) or
/// open a clause as a person (`name_context`: 。清欢道) to be taken for its
/// person.
const MIN_VOCATIVE: usize = 2;

/// Times a given name that is also a word of jieba's dictionary (飞虎,
/// 长亭) must open a clause as a person to be taken for its person; said
/// alone between punctuation it may be the word.
const MIN_SPOKEN_WORD: usize = 3;

/// Mentions a person needs before a given name that opens clauses joins it.
const MIN_HOLDER_MENTIONS: u32 = 3;

impl Recognizer {
    /// A person's two-character given name said alone joins that person
    /// (evidence `alias`), when one person only has that given name and it
    /// is no other name, nor a cue or a form of address:
    /// - said alone between punctuation at least `MIN_VOCATIVE` times
    ///   (“清欢，你放心”: the form people use to call one another in modern
    ///   fiction, where no cue follows it, so no rule proposes it), when it
    ///   is no word of the dictionary (沉舟 of 破釜沉舟 is a word: left
    ///   alone); or
    /// - opening clauses as a person (`name_context`: 。清欢道, 。飞虎曰)
    ///   as often, or `MIN_SPOKEN_WORD` times for a word of the dictionary:
    ///   classical fiction calls its heroes by the given name once it has
    ///   named them in full, and the model, trained on full names, refuses
    ///   a given name whose mentions mostly sit inside the full name.
    pub(super) fn bind_vocative_given_names(
        &self,
        mut decided: Vec<Decided>,
        runs: &Runs,
    ) -> Vec<Decided> {
        let names: HashSet<&str> = decided
            .iter()
            .flat_map(|d| {
                std::iter::once(d.name.as_str()).chain(d.aliases.iter().map(String::as_str))
            })
            .collect();
        // Given name → the one person who has it (None once two do).
        let mut holder: BTreeMap<String, Option<usize>> = BTreeMap::new();
        for (i, d) in decided.iter().enumerate() {
            if d.kind != EntityType::Person {
                continue;
            }
            let chars: Vec<char> = d.name.chars().collect();
            let Some((sl, weight)) = self.surname(&chars, &d.name) else {
                continue;
            };
            if weight < 2 || chars.len() != sl + 2 {
                continue;
            }
            let given: String = chars[sl..].iter().collect();
            // 大呼 (a cue), 小乙 (a form of address anyone may bear): no
            // given name of one person.
            let first = chars[sl];
            if names.contains(given.as_str())
                || self.lex.cues.contains_key(&given)
                || self.chars.birth_order.contains(&first)
                || self.chars.address_prefix.contains(&first)
                || self.chars.nickname_prefix.contains(&first)
                || self.is_generic(&given)
                || self.titles.contains_key(&given)
                || given.chars().any(|c| self.is_function_char(c))
            {
                continue;
            }
            holder
                .entry(given)
                .and_modify(|h| *h = None)
                .or_insert(Some(i));
        }
        holder.retain(|_, h| h.is_some());
        if holder.is_empty() {
            return decided;
        }
        // Per given name: (said alone between punctuation, opening a clause
        // as a person). A run that opens with a longer decided name (飞虎兵)
        // does not open with the given name.
        let counts: BTreeMap<&str, (usize, usize)> = runs
            .slices()
            .par_iter()
            .map(|part| {
                let mut local: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
                for run in part.iter() {
                    if let Some((given, _)) = holder.get_key_value(run.text) {
                        local.entry(given.as_str()).or_default().0 += 1;
                        continue;
                    }
                    if run.len() < 3 {
                        continue;
                    }
                    let Some((given, _)) = holder.get_key_value(run.sub(0, 2)) else {
                        continue;
                    };
                    let longer = (3..=4).any(|k| k <= run.len() && names.contains(run.sub(0, k)));
                    if !longer && self.name_context(&run, 0, 2).0 {
                        local.entry(given.as_str()).or_default().1 += 1;
                    }
                }
                local
            })
            .reduce(BTreeMap::new, |mut a, b| {
                for (k, (alone, opening)) in b {
                    let e = a.entry(k).or_default();
                    e.0 += alone;
                    e.1 += opening;
                }
                a
            });
        for (given, (alone, opening)) in counts {
            let Some(Some(i)) = holder.get(given) else {
                continue;
            };
            // A clause-opening given name needs a person the text names
            // often enough to lend it (侯出班, said once, is no one).
            let opening = if decided[*i].count >= MIN_HOLDER_MENTIONS {
                opening
            } else {
                0
            };
            let taken = if self.vocab.has_word(given) {
                opening >= MIN_SPOKEN_WORD
            } else {
                alone + opening >= MIN_VOCATIVE
            };
            if taken {
                decided[*i].aliases.insert(given.to_string());
                decided[*i].evidence.insert("alias");
            }
        }
        decided
    }

    /// Aliases from the lexicon's alias lists and from courtesy names
    /// stated in the text (董卓字仲颖, 刘备，字玄德).
    pub(super) fn add_aliases(
        &self,
        mut decided: Vec<Decided>,
        runs: &Runs,
        m: &Measured,
    ) -> Vec<Decided> {
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
                if courtesy.chars().any(|c| self.is_function_char(c)) {
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
                        && runs.at(ri - 1).chapter == run.chapter
                        && matches!(run.before, '，' | ',')
                    {
                        let prev = runs.at(ri - 1);
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
    /// Names the text states as 姓X名Y (小弟姓钟名慕白, 此人姓王名明), also
    /// across clauses (姓宋，名江), with 名叫/名唤 (名叫石敢当 may say the
    /// surname again), and with 讳 for 名 (姓李讳靖, 李讳奇: X讳 is then no
    /// person): X a listed surname, Y one or two characters. The full name
    /// X+Y is a person, decided even if the book writes it whole once or never
    /// (evidence `named`); a two-character Y is its alias (名慕白), unless
    /// Y is an entity of its own. A courtesy name stated right after
    /// (姓孟名琛字望舒, 姓苏名岩，表字远舟) joins it: the persons named Z or
    /// X+Z and X+Y are one, under the name the book uses most.
    pub(super) fn add_stated_names(&self, mut decided: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        let mut stated: BTreeMap<String, String> = BTreeMap::new();
        let mut courtesy: BTreeSet<(String, String, String)> = BTreeSet::new();
        // X讳 said before a personal name (李讳奇): no person of its own.
        let mut taboo_forms: BTreeSet<String> = BTreeSet::new();
        for (ri, run) in runs.iter().enumerate() {
            let n = run.len();
            for k in 0..n {
                let marker = run.ch(k);
                if marker != '姓' && marker != '讳' {
                    continue;
                }
                for sl in 1..=2usize {
                    // 姓X… names the surname after the marker; X讳Y before it.
                    let (surname, after) = if marker == '姓' {
                        if k + 1 + sl > n {
                            break;
                        }
                        (run.sub(k + 1, k + 1 + sl), k + 1 + sl)
                    } else {
                        if sl > k {
                            break;
                        }
                        (run.sub(k - sl, k), k)
                    };
                    if !self.surnames.contains_key(surname)
                        || surname.chars().any(|c| self.is_function_char(c))
                    {
                        continue;
                    }
                    // 名Y in the same clause (姓宋名江), or opening the next
                    // one (姓宋，名江); 讳Y (the personal name, 李讳奇).
                    let (ni, name_run, ming) = if after < n {
                        (ri, run, after)
                    } else if marker == '姓' {
                        match runs.get(ri + 1).filter(|next| {
                            next.chapter == run.chapter && matches!(run.after, '，' | ',')
                        }) {
                            Some(next) => (ri + 1, next, 0),
                            None => continue,
                        }
                    } else {
                        continue;
                    };
                    let m = name_run.len();
                    if ming + 1 >= m || !matches!(name_run.ch(ming), '名' | '讳') {
                        continue;
                    }
                    let taboo = name_run.ch(ming) == '讳';
                    // 法讳 (a monk's name) is no surname + 讳: a surname
                    // that is also a common character (weight 1) states
                    // nothing before 讳.
                    if taboo {
                        if self.surnames.get(surname).is_none_or(|&w| w < 2) {
                            continue;
                        }
                        taboo_forms.insert(format!("{surname}讳"));
                    }
                    // 名叫Y, 名唤Y: the name follows the verb, and may say
                    // the surname again (姓柯，名叫柯福).
                    let mut given_start = ming + 1;
                    if !taboo && matches!(name_run.ch(given_start), '叫' | '唤') {
                        given_start += 1;
                        if given_start + sl < m
                            && name_run.sub(given_start, given_start + sl) == surname
                        {
                            given_start += sl;
                        }
                    }
                    let given_end = (given_start..(given_start + 2).min(m))
                        .take_while(|&i| {
                            let c = name_run.ch(i);
                            // 表 of 表字 ends the given name too.
                            let courtesy_next =
                                c == '表' && i + 1 < m && name_run.ch(i + 1) == '字';
                            !(self.is_function_char(c)
                                || matches!(c, '字' | '号' | '唤' | '叫')
                                || courtesy_next)
                        })
                        .last()
                        .map_or(given_start, |i| i + 1);
                    if given_end == given_start {
                        continue;
                    }
                    // A personal name after 讳 ends its clause (讳尧夫，): in a
                    // list run on (韩讳升左辅) where it ends is unknown.
                    if taboo && given_end < m && courtesy_at(&name_run, given_end).is_none() {
                        continue;
                    }
                    let given = name_run.sub(given_start, given_end);
                    let full = format!("{surname}{given}");
                    // 字Z here, or at the start of the next clause.
                    let zi = if given_end < m {
                        courtesy_at(&name_run, given_end)
                    } else {
                        runs.get(ni + 1)
                            .filter(|next| {
                                next.chapter == name_run.chapter
                                    && matches!(name_run.after, '，' | ',')
                            })
                            .and_then(|next| courtesy_at(&next, 0))
                    };
                    if let Some(z) = zi.filter(|z| !z.chars().any(|c| self.is_function_char(c))) {
                        courtesy.insert((full.clone(), format!("{surname}{z}"), z.to_string()));
                    }
                    stated.insert(full, given.to_string());
                }
            }
        }
        decided.retain(|d| !(d.kind == EntityType::Person && taboo_forms.contains(&d.name)));
        if stated.is_empty() {
            return decided;
        }
        let full_names: Vec<String> = stated.keys().cloned().collect();
        let counts = super::resolve::count_in(&full_names, runs);
        for ((full, given), count) in stated.into_iter().zip(counts) {
            let alias = (given.chars().count() == 2 && !decided.iter().any(|d| d.name == given))
                .then_some(given);
            if let Some(d) = decided
                .iter_mut()
                .find(|d| d.name == full && d.kind == EntityType::Person)
            {
                d.evidence.insert("named");
                d.aliases.extend(alias);
                continue;
            }
            // Written whole nowhere and no alias to find it by: no mention.
            if count == 0 && alias.is_none() {
                continue;
            }
            // A name another entity already holds as an alias stays its.
            if decided.iter().any(|d| d.aliases.contains(&full)) {
                continue;
            }
            let mut d = decided_owned(full, EntityType::Person, 0.8, &["named"], count.max(1));
            d.aliases.extend(alias);
            decided.push(d);
        }
        for (full, surname_zi, zi) in courtesy {
            let names = [full.as_str(), zi.as_str(), surname_zi.as_str()];
            let mut same: Vec<usize> = (0..decided.len())
                .filter(|&i| {
                    decided[i].kind == EntityType::Person
                        && (names.contains(&decided[i].name.as_str())
                            || decided[i]
                                .aliases
                                .iter()
                                .any(|a| names.contains(&a.as_str())))
                })
                .collect();
            if same.is_empty() {
                continue;
            }
            same.sort_by_key(|&i| (std::cmp::Reverse(decided[i].count), i));
            let head_name = decided[same[0]].name.clone();
            let mut others: Vec<Decided> = Vec::new();
            let mut i = 0;
            decided.retain(|d| {
                let gone = same[1..].contains(&i);
                i += 1;
                if gone {
                    others.push(d.clone());
                }
                !gone
            });
            let head = decided
                .iter_mut()
                .find(|d| d.name == head_name)
                .expect("the head stays");
            for other in others {
                head.aliases.insert(other.name);
                head.aliases.extend(other.aliases);
                head.count += other.count;
            }
            head.aliases.insert(zi.clone());
            head.aliases.remove(&head_name);
            head.evidence.insert("zi");
        }
        decided
    }
}

/// The courtesy name stated at `at` of a run: 字Z or 表字Z, Z two characters.
fn courtesy_at<'a>(run: &Run<'a>, at: usize) -> Option<&'a str> {
    let n = run.len();
    let start = if run.ch(at) == '字' {
        at + 1
    } else if at + 1 < n && run.ch(at) == '表' && run.ch(at + 1) == '字' {
        at + 2
    } else {
        return None;
    };
    (start + 2 <= n).then(|| run.sub(start, start + 2))
}

#[cfg(test)]
mod tests {
    use super::super::decided_owned;
    use super::*;
    use crate::entity::corpus::RunStore;
    use crate::entity::Lexicon;

    #[test]
    fn a_given_name_said_alone_as_a_vocative_joins_its_one_person() {
        let r = Recognizer::new(Lexicon::builtin());
        let person =
            |name: &str| decided_owned(name.to_string(), EntityType::Person, 0.9, &["sur"], 5);
        let aliases = |persons: &[&str], text: &str| -> Vec<(String, Vec<String>)> {
            let store = RunStore::new(&[text]);
            let decided = persons.iter().map(|p| person(p)).collect();
            r.bind_vocative_given_names(decided, &store.runs())
                .into_iter()
                .map(|d| (d.name, d.aliases.into_iter().collect()))
                .collect()
        };
        let text = "“青禾，你来了。”苏青禾点了点头。“青禾！”“大呼，快走。”“大呼！”";
        assert_eq!(
            aliases(&["苏青禾", "方大呼"], text),
            [
                ("苏青禾".to_string(), vec!["青禾".to_string()]),
                // 大呼 is a cue ("cries out"), no one's given name.
                ("方大呼".to_string(), vec![]),
            ]
        );
        // Said alone once only; or a given name two people share.
        let once = "“青禾，你来了。”苏青禾点了点头。";
        assert_eq!(aliases(&["苏青禾"], once)[0].1, Vec::<String>::new());
        let shared = aliases(&["苏青禾", "柯青禾"], text);
        assert!(shared.iter().all(|(_, a)| a.is_empty()), "{shared:?}");
    }

    #[test]
    fn a_given_name_opening_clauses_as_a_person_joins_its_one_person() {
        let r = Recognizer::new(Lexicon::builtin());
        let aliases = |persons: &[(&str, u32)], text: &str| -> Vec<(String, Vec<String>)> {
            let store = RunStore::new(&[text]);
            let decided = persons
                .iter()
                .map(|&(p, n)| decided_owned(p.to_string(), EntityType::Person, 0.9, &["sur"], n))
                .collect();
            r.bind_vocative_given_names(decided, &store.runs())
                .into_iter()
                .map(|d| (d.name, d.aliases.into_iter().collect()))
                .collect()
        };
        let given = |persons: &[(&str, u32)], text: &str| -> Vec<String> {
            aliases(persons, text).swap_remove(0).1
        };
        // 青禾 opens two clauses before a speech or action cue.
        let text = "苏青禾点了点头。青禾道：“好。”青禾笑道：“走。”";
        assert_eq!(given(&[("苏青禾", 5)], text), ["青禾"]);
        // Once only; or a person said too seldom to lend it.
        let once = "苏青禾点了点头。青禾道：“好。”";
        assert!(given(&[("苏青禾", 5)], once).is_empty());
        assert!(given(&[("苏青禾", 2)], text).is_empty());
        // A longer decided name opening the clause is not the given name.
        let army = "苏青禾点了点头。青禾营道：“好。”青禾营笑道：“走。”";
        assert!(given(&[("苏青禾", 5), ("青禾营", 2)], army).is_empty());
        // A given name that is a word of the dictionary (长亭) needs three.
        let word = "柯长亭点了点头。长亭道：“好。”长亭笑道：“走。”";
        assert!(given(&[("柯长亭", 5)], word).is_empty());
        let thrice = format!("{word}长亭道：“来。”");
        assert_eq!(given(&[("柯长亭", 5)], &thrice), ["长亭"]);
    }

    #[test]
    fn names_stated_as_surname_and_given_name_by_table() {
        // (rule, text, already decided, expected (name, aliases) rows)
        type StatedCase = (
            &'static str,
            &'static str,
            &'static [&'static str],
            &'static [(&'static str, &'static [&'static str])],
        );
        let cases: &[StatedCase] = &[
            (
                "a name stated once is a person, its given name an alias",
                "此人姓韩名铁衣，乃云州人。",
                &[],
                &[("韩铁衣", &["铁衣"])],
            ),
            (
                "a decided person gains the given name",
                "韩铁衣来了。此人姓韩名铁衣。",
                &["韩铁衣"],
                &[("韩铁衣", &["铁衣"])],
            ),
            (
                "a courtesy name stated after it joins the persons so named",
                "此人姓韩名青，字铁衣。韩青大喜。",
                &["韩铁衣", "韩青"],
                &[("韩铁衣", &["铁衣", "韩青"])],
            ),
            (
                "表字 in the same clause too",
                "此人姓韩名青表字铁衣。",
                &["韩铁衣"],
                &[("韩铁衣", &["铁衣"])],
            ),
            (
                "姓X，名Y，表字Z across clauses, as punctuated editions write it",
                "那人姓韩，名青，表字铁衣，排行第三。韩铁衣来了。韩青大喜。",
                &["韩铁衣", "韩青"],
                &[("韩铁衣", &["铁衣", "韩青"])],
            ),
            (
                "a two-character surname across clauses",
                "来者复姓欧阳，名铁衣。欧阳铁衣大笑。",
                &[],
                &[("欧阳铁衣", &["铁衣"])],
            ),
            (
                "名叫 the full name: the surname is not said twice",
                "小人姓石，名叫石敢当。石敢当道：“是。”",
                &[],
                &[("石敢当", &["敢当"])],
            ),
            (
                "名唤 a given name",
                "有一人姓苏，名唤青禾，在村中居住。",
                &[],
                &[("苏青禾", &["青禾"])],
            ),
            (
                "讳 for 名, across clauses too",
                "那人姓韩，讳铁衣，道号青石。韩铁衣来了。",
                &[],
                &[("韩铁衣", &["铁衣"])],
            ),
            (
                "X讳Y in a list: X讳 is no person",
                "天罡星 韩讳铁衣 地煞星 苏讳青禾 韩铁衣来了。苏青禾来了。",
                &["韩讳"],
                &[("韩铁衣", &["铁衣"]), ("苏青禾", &["青禾"])],
            ),
            (
                "a list run on past the name says nothing; nor 法讳, a monk's name",
                "韩讳铁衣左辅 法讳玄通，",
                &[],
                &[],
            ),
            (
                "百姓 at a clause's end is no statement",
                "安抚百姓，名正言顺。",
                &[],
                &[],
            ),
            (
                "a question for a name states none",
                "请问尊姓大名？姓甚名谁？",
                &[],
                &[],
            ),
            (
                "a one-character given name the book never writes whole gives nothing to find",
                "此人姓韩名青，乃云州人。",
                &[],
                &[],
            ),
            (
                "it does when the book writes the full name",
                "此人姓韩名青。韩青大喜。",
                &[],
                &[("韩青", &[])],
            ),
        ];
        let r = Recognizer::new(Lexicon::builtin());
        for (rule, text, decided, want) in cases {
            let store = RunStore::new(&[*text]);
            let runs = store.runs();
            let decided: Vec<Decided> = decided
                .iter()
                .map(|n| decided_owned(n.to_string(), EntityType::Person, 0.9, &["sur"], 3))
                .collect();
            let got = super::super::alias_rows(&r.add_stated_names(decided, &runs));
            let want = super::super::expected_rows(want);
            assert_eq!(got, want, "{rule}");
        }
    }
}
