//! Aliases: alias lists (built-in lines only for books that name the
//! canonical entity, the user's always), courtesy names the text states,
//! and names stated as 姓X名Y.

use super::*;

impl Recognizer {
    /// Aliases from the lexicon's alias lists and from courtesy names
    /// stated in the text (董卓字仲颖, 刘备，字玄德).
    pub(super) fn add_aliases(
        &self,
        mut decided: Vec<Decided>,
        runs: &[Run],
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
    /// Names the text states as 姓X名Y (小弟姓丁名兆蕙, 此人姓王名明): X a
    /// listed surname, Y one or two characters. The full name X+Y is a
    /// person, decided even if the book writes it whole once or never
    /// (evidence `named`); a two-character Y is its alias (名兆蕙), unless
    /// Y is an entity of its own.
    pub(super) fn add_stated_names(&self, mut decided: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        let mut stated: BTreeMap<String, String> = BTreeMap::new();
        for run in runs.iter() {
            let n = run.len();
            for k in 0..n {
                if run.ch(k) != '姓' {
                    continue;
                }
                for sl in 1..=2usize {
                    let ming = k + 1 + sl;
                    if ming + 1 >= n || run.ch(ming) != '名' {
                        continue;
                    }
                    let surname = run.sub(k + 1, ming);
                    if !self.surnames.contains_key(surname)
                        || surname.chars().any(|c| self.is_function_char(c))
                    {
                        continue;
                    }
                    let given_end = (ming + 1..(ming + 3).min(n))
                        .take_while(|&i| {
                            let c = run.ch(i);
                            !self.is_function_char(c) && !matches!(c, '字' | '号' | '唤' | '叫')
                        })
                        .last()
                        .map_or(ming + 1, |i| i + 1);
                    if given_end == ming + 1 {
                        continue;
                    }
                    let given = run.sub(ming + 1, given_end);
                    stated.insert(format!("{surname}{given}"), given.to_string());
                }
            }
        }
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
        decided
    }
}
