//! Resolve: decisions that look at several candidates at once: nested names,
//! names straddling a stronger one, coordination, counts of people (王马二人)
//! and the coordinated surnames said before them, armies merged by stem,
//! one-character factions from army stems and polity contexts, listed
//! polities that are also ordinary phrases (kept only where read as
//! polities), families' villages said once, adepts named by a sobriquet
//! and a religious title (bound to the sobriquet when it is a person),
//! named battle arrays, and names holding a function character (柯不凋).

use super::judge::{ArraySeen, NameSeen};
use super::*;

/// The share of a name's mentions before a realm word that makes it a realm.
const REALM_SHARE: f64 = 0.2;

/// How a name is known to be a full name's given name used alone.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum GivenName {
    /// A listed surname + a name that does not start with one (鲁 + 智深).
    Listed,
    /// A name that could stand alone (云锋: 云 is a surname too, 付林冲 is
    /// 付 + 林冲) but the full name carries a fifth of its mentions, at
    /// least `MIN_FULL_NAME`; a third when the first character is not on
    /// our surname list (岚孟川, 棠远舟). `a.count` counts the mentions
    /// inside the full name too.
    Used,
}

/// A side's slang army (番兵) must be used this share of the book's most
/// used army, and `MIN_SLANG_ARMY` times.
const SLANG_SHARE: f64 = 0.15;
const MIN_SLANG_ARMY: u32 = 5;

/// Times a book must write an echelon's commander (团长) for the echelon
/// to name its units, and a word-named unit (独立团) must be said.
const MIN_RANK: u32 = 3;
const MIN_NAMED_UNIT: u32 = 3;
/// The same in a chapter-sized text (`SHORT_TEXT`).
const MIN_NAMED_UNIT_SHORT: u32 = 2;
/// Times each numbered unit of a series (一营, 二营) must be said.
const MIN_NUMBERED_UNIT: u32 = 2;
/// Times a numbered unit outside a series (三营 with no 二营) must be said.
const MIN_LONE_UNIT: u32 = 3;

/// Share of a numbered unit's mentions its prefixed form (新二团) must have.
const PREFIXED_SHARE: f64 = 0.8;

/// How a modern unit is named: 一营, 第三营, 独立团.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum UnitName {
    Numbered,
    Nth,
    Word,
    /// Arabic numerals (771团), which the runs leave out: counted where
    /// found.
    Digits,
    /// A character before the numeral that the book writes with it (新二团).
    Prefixed,
}

/// Times a one-character-stem sect must be followed by a member word.
const MIN_SECT_MEMBERS: u32 = 2;

/// Mentions an empire's name (大X帝国) needs.
const MIN_EMPIRE: u32 = 2;

/// The fewest mentions of a sect named by its head's title (`add_titled_sects`).
const MIN_TITLED_SECT: u32 = 2;

/// Mentions of a people's or state's stem before polity words (`add_polity_stems`).
const MIN_POLITY_STEM: u32 = 5;

/// Different polity words a people's or state's stem must stand before.
const POLITY_STEM_HEADS: usize = 3;

/// Mentions of a society whose stem is bound to its suffix
/// (`add_bound_factions`): a chapter names its gang twice.
const MIN_BOUND_FACTION: u32 = 2;

/// Mentions a full name needs before a given name that could stand alone
/// (云锋: 云 is a surname too) is taken for its given name.
const MIN_FULL_NAME: u32 = 5;

/// Journeys (往X去) that keep a place the model refused in a chapter
/// (`add_framed_places`).
const FRAMED_MIN: u32 = 2;

/// Movement cues before a listed polity that make it a place
/// (`places_by_context`).
const PLACE_BY_MOVES_MIN: u32 = 3;

/// Mentions a person needs before being pointed at (那X, 这X, 一个X) at
/// half of them makes it a role (`pointed_role`).
const POINTED_MIN: u32 = 3;

/// Mentions after an object cue (取出, 手提, 一柄) that make a person
/// candidate a thing held or handled (`handled_object`).
const HANDLED_MIN: u32 = 2;

/// Mentions of a sobriquet + religious title that make it a person in a
/// chapter-sized text (`add_chapter_adepts`).
const CHAPTER_ADEPT_MIN: u32 = 2;
/// Times an adept's sobriquet + title is said in a chapter for a
/// sobriquet character jieba tags a verb to be let in.
const CHAPTER_ADEPT_SURE: u32 = 4;

/// Mentions read as many people (众X, 各X, 那些X, X们) that make a person
/// candidate a kind of people (`group_noun`).
const GROUPED_MIN: u32 = 2;

/// Mentions counted as two or more people (X二人, X两位) that make two
/// surnames side by side a pair, not a name (`surname_pair`).
const PAIRED_MIN: u32 = 2;

/// Whether a person candidate said `count` times, `say` of them before a
/// speech cue, and `handled` of them right after an object cue, is a thing
/// held or handled (a weapon or treasure that 飞来 and 打中 like a man):
/// handled at least `HANDLED_MIN` times and at a tenth of its mentions,
/// and either never speaking or handled at a sixth of them. A person is
/// seldom written after 取出 or 手提; once (取出一封书, 韩千山) is chance.
pub(super) fn handled_object(count: u32, say: u32, handled: u32) -> bool {
    handled >= HANDLED_MIN && handled * 10 >= count && (say == 0 || handled * 6 >= count)
}

/// Whether a person candidate said `count` times, `grouped` of them as
/// many people (众家丁, 各路庄客, 那些庄客, 庄客们), names a kind of people,
/// not one: grouped at least `GROUPED_MIN` times and at a tenth of its
/// mentions. A name is one person; a book groups it seldom if ever.
pub(super) fn group_noun(count: u32, grouped: u32) -> bool {
    grouped >= GROUPED_MIN && grouped * 10 >= count
}

/// Whether a person candidate said `count` times, `paired` of them before a
/// count of people (二人, 两位), is two persons named by their surnames side
/// by side (韩柯二人): paired at least `PAIRED_MIN` times and at a fifth of
/// its mentions. A name of two surnames (a given name that is also a
/// surname) stands before 二人 only as the second of two names, seldom.
pub(super) fn surname_pair(count: u32, paired: u32) -> bool {
    paired >= PAIRED_MIN && paired * 5 >= count
}

impl Recognizer {
    /// Drops the two-character persons made of two surnames of the book's
    /// persons that the book counts as two people (`surname_pair`): 韩柯二人
    /// names 韩千山 and 柯北辰. It reads the decided names only, after the
    /// learned model.
    pub(super) fn drop_surname_pairs(&self, decided: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        // The surnames of the book's persons and how many names begin with
        // each: 韩 of 韩千山 and 韩柯 (a pair's first surname must begin
        // another name besides the pair).
        let mut book_surnames: std::collections::HashMap<char, u32> = Default::default();
        for d in decided.iter().filter(|d| d.kind == EntityType::Person) {
            if let Some(c) = d.name.chars().next().filter(|c| {
                self.surnames
                    .contains_key(c.encode_utf8(&mut [0u8; 4]) as &str)
            }) {
                *book_surnames.entry(c).or_default() += 1;
            }
        }
        let pair_shaped = |d: &Decided| {
            let chars: Vec<char> = d.name.chars().collect();
            chars.len() == 2
                && book_surnames.get(&chars[0]).is_some_and(|&n| n >= 2)
                && book_surnames.contains_key(&chars[1])
        };
        self.drop_persons_by_context(
            decided,
            runs,
            PAIRED_MIN,
            pair_shaped,
            |text, _, end| {
                let mut after = text[end..].chars();
                after.next().is_some_and(|c| self.numerals.contains(&c))
                    && after
                        .next()
                        .is_some_and(|c| self.chars.person_counter.contains(&c))
            },
            |_, count, paired| surname_pair(count, paired),
        )
    }

    /// Drops the persons the book groups as many (`group_noun`): roles and
    /// kinds of people (众家丁, 庄客们) that speak and act like a man. It
    /// reads the decided names only, after the learned model.
    pub(super) fn drop_group_nouns(&self, decided: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        self.drop_persons_by_context(
            decided,
            runs,
            GROUPED_MIN,
            |_| true,
            |text, start, end| {
                text[..start].chars().next_back().is_some_and(|c| {
                    self.chars.group.contains(&c) || self.chars.plural_before.contains(&c)
                }) || text[end..]
                    .chars()
                    .next()
                    .is_some_and(|c| self.chars.plural_after.contains(&c))
            },
            |_, count, grouped| group_noun(count, grouped),
        )
    }

    /// Drops the persons said at least `min` times, of the shape `shaped`,
    /// for which `verdict(name, count, n)` holds, `n` being how many of its
    /// mentions `context(run text, start, end)` accepts: the persons a
    /// book writes in a way no name is written (one scan over the book).
    fn drop_persons_by_context(
        &self,
        mut decided: Vec<Decided>,
        runs: &Runs,
        min: u32,
        shaped: impl Fn(&Decided) -> bool,
        context: impl Fn(&str, usize, usize) -> bool + Sync,
        verdict: impl Fn(&str, u32, u32) -> bool,
    ) -> Vec<Decided> {
        let (names, counts): (Vec<&str>, Vec<u32>) = decided
            .iter()
            .filter(|d| d.kind == EntityType::Person && d.count >= min && shaped(d))
            .map(|d| (d.name.as_str(), d.count))
            .unzip();
        if names.is_empty() {
            return decided;
        }
        let seen = count_in_where(&names, runs, context);
        let dropped: HashSet<String> = names
            .iter()
            .zip(counts)
            .zip(seen)
            .filter(|&((w, count), n)| verdict(w, count, n))
            .map(|((w, _), _)| w.to_string())
            .collect();
        decided.retain(|d| !(d.kind == EntityType::Person && dropped.contains(&d.name)));
        decided
    }

    /// Drops the persons the book handles as things (`handled_object`):
    /// 祭起X, 手提X, 一柄X. It reads the decided names only, after the
    /// learned model, so the model's training is unchanged.
    pub(super) fn drop_handled_objects(
        &self,
        decided: Vec<Decided>,
        runs: &Runs,
        m: &Measured,
    ) -> Vec<Decided> {
        if self.lex.object_cues.is_empty() {
            return decided;
        }
        let cues: HashSet<&str> = self.lex.object_cues.iter().map(String::as_str).collect();
        let longest = cues.iter().map(|c| c.chars().count()).max().unwrap_or(0);
        self.drop_persons_by_context(
            decided,
            runs,
            HANDLED_MIN,
            |_| true,
            |text, start, _| {
                let before = &text[..start];
                before
                    .char_indices()
                    .rev()
                    .take(longest)
                    .any(|(k, _)| cues.contains(&before[k..]))
            },
            |w, count, handled| {
                let say = m.stat(w).map_or(0, |st| st.say);
                handled_object(count, say, handled)
            },
        )
    }

    /// A listed polity the book only goes to is a place here (往X进香,
    /// 在X开设茶楼: a temple hill named after the state): a faction of two or
    /// more characters from the lexicon alone, with no polity context and
    /// not named as a state (X国, X朝: the state one travels to), after a
    /// movement cue at a third of its mentions and at least
    /// `PLACE_BY_MOVES_MIN` times, becomes a place.
    pub(super) fn places_by_context(&self, mut all: Vec<Decided>, m: &Measured) -> Vec<Decided> {
        let places: HashSet<String> = all
            .iter()
            .filter(|d| d.kind == EntityType::Place)
            .map(|d| d.name.clone())
            .collect();
        for d in all.iter_mut() {
            if d.kind != EntityType::Faction
                || places.contains(&d.name)
                || d.name.chars().count() < 2
                || d.evidence.len() != 1
                || !d.evidence.contains("lex")
                || d.name
                    .chars()
                    .next_back()
                    .is_some_and(|c| self.chars.polity_after.contains(&c))
            {
                continue;
            }
            let Some(st) = m.stat(&d.name) else {
                continue;
            };
            if st.mov >= PLACE_BY_MOVES_MIN && st.mov * 3 >= st.count {
                d.kind = EntityType::Place;
                d.evidence.insert("mov");
            }
        }
        all
    }

    /// Places the rules took and the model refused in a chapter-sized text,
    /// which the text moves people to in the frame of a journey at least
    /// `FRAMED_MIN` times (往X去, 到X来: a movement cue before, 去 or 来
    /// right after), stand: the model reads few mentions in a chapter, and
    /// no person is gone to so.
    pub(super) fn add_framed_places(
        &self,
        first: Vec<Decided>,
        refused: &[Decided],
        runs: &Runs,
    ) -> Vec<Decided> {
        let names: Vec<&str> = refused
            .iter()
            .filter(|d| d.kind == EntityType::Place && d.count >= FRAMED_MIN)
            .map(|d| d.name.as_str())
            .collect();
        if names.is_empty() {
            return first;
        }
        let ac = runs.matcher(names.iter(), aho_corasick::MatchKind::LeftmostLongest);
        let mut framed = vec![0u32; names.len()];
        for hit in runs.find_all(&ac) {
            let run = runs.at(hit.run as usize);
            let i = run.off.partition_point(|&o| o < hit.start);
            let j = run.off.partition_point(|&o| o < hit.end);
            let journey = j < run.len() && matches!(run.ch(j), '去' | '来');
            if journey && i > 0 && self.cue_next_to(&run, i, false, CueClass::Movement) {
                framed[hit.pattern as usize] += 1;
            }
        }
        let added: Vec<Decided> = refused
            .iter()
            .filter(|d| {
                names
                    .iter()
                    .position(|w| *w == d.name)
                    .is_some_and(|k| framed[k] >= FRAMED_MIN)
            })
            .cloned()
            .collect();
        with_added(first, added)
    }

    /// Drops the persons that are roles pointed at (`pointed_role`).
    pub(super) fn drop_pointed_roles(
        &self,
        mut decided: Vec<Decided>,
        m: &Measured,
    ) -> Vec<Decided> {
        decided.retain(|d| d.kind != EntityType::Person || !self.pointed_role(&d.name, d.count, m));
        decided
    }

    /// A role pointed at, not a name: said at least `POINTED_MIN` times,
    /// half of them after a demonstrative or classifier; or
    /// 那武生, 那秀士: a demonstrative that is at most a rare surname (那
    /// has weight 1), then two or more characters the book says at least
    /// twice more on their own (一个武生, 两位武生): "that young gallant",
    /// a role pointed at, not a man named 那. `demonstrative_phrase` leaves
    /// out such a phrase when jieba lists the noun as an ordinary word; this
    /// reads the book instead, after the model (jieba tags 武生 a name, and
    /// 秀士 is not in its dictionary). A name of that surname (那彦成) is
    /// seldom said without it.
    pub(super) fn pointed_role(&self, w: &str, count: u32, m: &Measured) -> bool {
        // 那武生 … 这武生: a role said after a demonstrative or classifier at
        // half its mentions (a name is pointed at now and then: 那韩千山).
        if m.stat(w)
            .is_some_and(|st| st.count >= POINTED_MIN && st.after_demonstrative * 2 >= st.count)
        {
            return true;
        }
        let mut chars = w.chars();
        let Some(first) = chars.next() else {
            return false;
        };
        let rest = chars.as_str();
        rest.chars().count() >= 2
            && self.chars.demonstrative.contains(&first)
            && self
                .lex
                .surnames
                .get(first.encode_utf8(&mut [0u8; 4]) as &str)
                .is_none_or(|&weight| weight <= 1)
            && m.count(rest) >= count + 2
    }

    /// Resolves accepted names that contain one another:
    /// - the shorter one lives (almost) only inside the longer: it goes
    ///   (耶律挞 inside 耶律挞烈, 德州 inside 安德州);
    /// - the longer one is the shorter plus context (距离锦州, 秦军掩): it
    ///   goes, unless it is the shorter plus a suffix (海阳 → 海阳城: one
    ///   place, merged as an alias).
    pub(super) fn resolve_nested(&self, decided: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
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
        // The full name a given name that could stand alone (云锋) is taken
        // for: the one the book uses most, unless another is used half as
        // often (a given name two people share binds to neither).
        let mut given_name_holder: Vec<Option<usize>> = vec![None; decided.len()];
        for (ai, a) in decided.iter().enumerate() {
            let forms: Vec<(usize, GivenName)> = containers[ai]
                .iter()
                .filter_map(|&bi| self.given_name_of(a, &decided[bi]).map(|g| (bi, g)))
                .collect();
            if forms.iter().any(|f| f.1 == GivenName::Listed) {
                continue;
            }
            let mut holders: Vec<usize> = forms.iter().map(|f| f.0).collect();
            holders.sort_by_key(|&bi| (std::cmp::Reverse(decided[bi].count), bi));
            let clear = match holders.get(1) {
                Some(&next) => decided[next].count * 2 < decided[holders[0]].count,
                None => true,
            };
            if clear {
                given_name_holder[ai] = holders.first().copied();
            }
        }
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
                // 智深 and 鲁智深, 云锋 and 苏云锋: a given name used alone is
                // the person, when one full name holds it.
                let given_name = self.given_name_of(a, b);
                let surname_plus = match given_name {
                    Some(GivenName::Listed) => true,
                    Some(GivenName::Used) => given_name_holder[ai] == Some(bi),
                    None => false,
                };
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
                } else if name_and_next(a, b) && outside >= b.count as f64 {
                    // 韩青住, 苏岩卒: a person and the next character, said
                    // once or twice, and less often than the person alone.
                    keep[bi] = false;
                } else if !suffixed
                    && given_name.is_none()
                    && (b.count as f64) < 0.34 * a.count as f64
                {
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

    /// Whether person `a` is person `b`'s given name used alone: `b` is a
    /// surname + `a` (鲁智深 and 智深), and how we know.
    fn given_name_of(&self, a: &Decided, b: &Decided) -> Option<GivenName> {
        if a.kind != EntityType::Person
            || b.kind != EntityType::Person
            || !b.name.ends_with(a.name.as_str())
            || b.name.len() == a.name.len()
        {
            return None;
        }
        let prefix = &b.name[..b.name.len() - a.name.len()];
        // A first character our list lacks must look like one: a single
        // character that is no function word, verb or birth-order numeral.
        let listed = self.surnames.contains_key(prefix);
        if prefix.chars().any(|c| self.chars.birth_order.contains(&c))
            || (!listed
                && (prefix.chars().count() > 1
                    || prefix
                        .chars()
                        .any(|c| self.is_function_char(c) || self.verbish.contains(&c))))
        {
            return None;
        }
        if listed && !a.evidence.contains("sur") {
            return Some(GivenName::Listed);
        }
        let (full, given) = (b.count as f64, a.count as f64);
        (a.name.chars().count() == 2
            && b.count >= MIN_FULL_NAME
            && full >= 0.2 * given
            && (listed || full >= 0.3 * given))
            .then_some(GivenName::Used)
    }

    /// Drops names every occurrence of which straddles a stronger name
    /// (住山 in 守住山海关: 山海关 is stronger). Stronger: from the lexicon,
    /// or more frequent, or a better score.
    pub(super) fn drop_overlapped(&self, decided: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        if decided.is_empty() {
            return decided;
        }
        let ac = runs.matcher(
            decided.iter().map(|d| d.name.as_str()),
            aho_corasick::MatchKind::Standard,
        );
        // Two matches overlap only if their starts are less than the
        // longest name apart: each match looks at that window only, so the
        // cost is linear in the run (a long unpunctuated run is no longer
        // quadratic).
        let longest = decided.iter().map(|d| d.name.len()).max().unwrap_or(0);
        let listed =
            |d: &Decided| self.lex.places.contains(&d.name) || self.lex.factions.contains(&d.name);
        let strength = |d: &Decided| (listed(d), d.count, (d.score * 1000.0) as i64);
        // Counted per slice of the book in parallel, then added up.
        let (straddled, seen) = runs
            .map_matchable(&ac, |part| {
                let mut straddled = vec![0u32; decided.len()];
                let mut seen = vec![0u32; decided.len()];
                for run in part {
                    let mut ms: Vec<(usize, usize, usize)> = ac
                        .ac
                        .find_overlapping_iter(run.text)
                        .map(|m| (m.start(), m.end(), m.pattern().as_usize()))
                        .collect();
                    ms.sort_unstable();
                    for &(s1, e1, p1) in &ms {
                        seen[p1] += 1;
                        let from = ms.partition_point(|m| m.0 + longest <= s1);
                        let to = ms.partition_point(|m| m.0 < e1);
                        let crossed = ms[from..to].iter().any(|&(s2, e2, p2)| {
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
            .into_iter()
            .fold(
                (vec![0; decided.len()], vec![0; decided.len()]),
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
    pub(super) fn add_coordinated(
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
        let known_parts = NameParts::new(known.keys().copied());
        let known_ac = crate::entity::name_matcher(
            known_list.iter().map(|k| k.0),
            aho_corasick::MatchKind::LeftmostLongest,
        );
        // `tailed`: the items share a following word (X兵马、Y兵马), which
        // vouches for the boundary; otherwise a person needs a surname.
        // `whole`: a whole item of a list of persons (潘仁美、柯君其、秦昭庆):
        // a strong surname and two characters are a name there, though a
        // function character is among them (何, 其).
        let consider = |w: &str,
                        kind: EntityType,
                        tailed: bool,
                        whole: bool,
                        found: &mut BTreeMap<String, (EntityType, u32)>| {
            if known.contains_key(w) || self.is_generic(w) {
                return;
            }
            // 宋清立 holds the known 宋清: a misread boundary, not a new name.
            if known_parts.in_one(w) || known_parts.holds_one(w) {
                return;
            }
            let chars: Vec<char> = w.chars().collect();
            let listed_name = whole
                && kind == EntityType::Person
                && chars.len() == 3
                && self
                    .surnames
                    .get(&w[..chars[0].len_utf8()])
                    .is_some_and(|&sw| sw >= 3);
            if !(2..=4).contains(&chars.len())
                || chars.iter().enumerate().any(|(k, &c)| {
                    // 其 and 何 pass in a listed name; 等 (a verb too) does not
                    // end one, but a verb's character before its last does
                    // (谢道衡: no "谢 said" between two commas).
                    let bare_function = self.is_function_char(c) && {
                        let one = c.to_string();
                        self.cue(&one, CueClass::Action) == 0
                            && self.cue(&one, CueClass::Speech) == 0
                    };
                    (self.is_function_char(c) || self.not_given.contains(&c))
                        && !(listed_name && (bare_function || k + 1 < chars.len()))
                })
                // A dictionary word, unless jieba reads it a person's name
                // and a list of persons holds it whole (柯北辰、苏青禾).
                || (self.vocab.has_word(w)
                    && !(whole && kind == EntityType::Person && self.tag_of(w) == Some(Tag::Person)))
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
                    listed_name
                        || (self.stem_ok(w, false) && tailed)
                        || (self.stem_ok(w, false)
                            && self.surname(&chars, w).is_some_and(|(sl, sw)| {
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
                    let run = runs.at(ri);
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
                                let clean_end =
                                    s + l == n || self.is_function_char(run.ch(s + l)) || {
                                        let next = run.sub(s + l, (s + l + 2).min(n));
                                        self.vocab.has_word(next)
                                            || self.cue(run.sub(s + l, s + l + 1), CueClass::Action)
                                                > 0
                                    };
                                if same_shape && clean_end {
                                    consider(w, kind, false, false, &mut found);
                                }
                            }
                        }
                    }
                    // Lists: runs joined by 、 whose items end the same way (X兵马、Y兵马).
                    if run.after == '、' && ri + 1 < runs.len() {
                        let mut items = vec![ri];
                        let mut k = ri;
                        while k + 1 < runs.len()
                            && runs.at(k).after == '、'
                            && runs.at(k + 1).chapter == run.chapter
                        {
                            k += 1;
                            items.push(k);
                        }
                        if ri > 0 && runs.at(ri - 1).after == '、' {
                            continue; // handled from the list's first item
                        }
                        // Common tail of the items (兵马).
                        let tails: Vec<&str> = items.iter().map(|&x| runs.at(x).text).collect();
                        for tail_len in [2usize, 0] {
                            let mut typed: Option<EntityType> = None;
                            let mut cands: Vec<&str> = Vec::new();
                            let mut agree = true;
                            for (idx, t) in tails.iter().enumerate() {
                                let r = runs.at(items[idx]);
                                let rn = r.len();
                                if rn <= tail_len {
                                    agree = false;
                                    break;
                                }
                                if tail_len > 0
                                    && idx + 1 < tails.len()
                                    && r.sub(rn - tail_len, rn) != runs.at(items[idx + 1]).sub(0, 0)
                                {
                                    // tail compared below
                                }
                                let _ = t;
                                // The item is the whole run (minus the tail); for the last item, a known
                                // name at its start followed by the same tail.
                                let body = if idx + 1 < tails.len() || tail_len == 0 {
                                    if tail_len > 0
                                        && r.sub(rn - tail_len, rn)
                                            != runs.at(items[0]).sub(
                                                runs.at(items[0]).len() - tail_len,
                                                runs.at(items[0]).len(),
                                            )
                                    {
                                        agree = false;
                                        break;
                                    }
                                    r.sub(0, rn - tail_len)
                                } else {
                                    let first_tail = runs.at(items[0]).sub(
                                        runs.at(items[0]).len() - tail_len,
                                        runs.at(items[0]).len(),
                                    );
                                    match r.text.find(first_tail) {
                                        Some(p) if p > 0 => &r.text[..p],
                                        _ => {
                                            agree = false;
                                            break;
                                        }
                                    }
                                };
                                // The list's first item may end with a known
                                // name and its last begin with one, the
                                // sentence running on (拘到|韩千山、…、柯北辰|一干人).
                                let body = if tail_len == 0 && !known.contains_key(body) {
                                    let edge = |l: usize| {
                                        if l >= rn {
                                            return None;
                                        }
                                        let w = if idx == 0 {
                                            r.sub(rn - l, rn)
                                        } else {
                                            r.sub(0, l)
                                        };
                                        known.contains_key(w).then_some(w)
                                    };
                                    let first_or_last = idx == 0 || idx + 1 == tails.len();
                                    // 再命|柯元庆、…: a first item of three or
                                    // more that a command cue opens ends with a
                                    // three-character name.
                                    let commanded = || {
                                        let opens = idx == 0
                                            && tails.len() >= 3
                                            && rn > 3
                                            && (1..=2.min(rn - 3)).any(|k| {
                                                self.cue(
                                                    r.sub(rn - 3 - k, rn - 3),
                                                    CueClass::Command,
                                                ) >= 3
                                            });
                                        opens.then(|| r.sub(rn - 3, rn))
                                    };
                                    first_or_last
                                        .then(|| (2..=4).rev().find_map(edge))
                                        .flatten()
                                        .or_else(commanded)
                                        .unwrap_or(body)
                                } else {
                                    body
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
                                        consider(c, kind, tail_len > 0, true, &mut found);
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
    /// the most frequent form names it. A camp (金营, 宋大营) is not its
    /// troops: camps of one stem are one entity, the troops another.
    pub(super) fn merge_armies(&self, decided: Vec<Decided>) -> Vec<Decided> {
        let mut groups: BTreeMap<(String, bool), Vec<Decided>> = BTreeMap::new();
        for d in decided {
            let (stem, camp) = match self.army_suffix(&d.name) {
                Some((l, _)) => {
                    let n = d.name.chars().count();
                    let suffix: String = d.name.chars().skip(n - l).collect();
                    let camp = suffix.ends_with('营') || suffix.ends_with('寨');
                    (d.name.chars().take(n - l).collect(), camp)
                }
                None => (d.name.clone(), false),
            };
            // 契丹骑兵 and 契丹败兵 share the stem 契丹 (骑兵, 败兵 are suffixes).
            groups.entry((stem, camp)).or_default().push(d);
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

    /// A person's name that the book mostly uses for his realm (柯烈天下,
    /// 柯烈社稷, 柯烈营: a dynasty named by its founder) is a faction: at
    /// least `REALM_SHARE` of its mentions, and ten, are followed (perhaps
    /// after 之) by a realm word of dict/realm_words.txt.
    pub(super) fn realm_names(&self, mut decided: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        let persons: Vec<usize> = (0..decided.len())
            .filter(|&i| decided[i].kind == EntityType::Person && decided[i].count >= 10)
            .collect();
        if persons.is_empty() || self.lex.realm_words.is_empty() {
            return decided;
        }
        let ac = runs.matcher(
            persons.iter().map(|&i| decided[i].name.as_str()),
            aho_corasick::MatchKind::LeftmostLongest,
        );
        let counts: Vec<(u32, u32)> = runs
            .map_matchable(&ac, |part| {
                let mut counts = vec![(0u32, 0u32); persons.len()];
                for run in part {
                    for m in ac.ac.find_iter(run.text) {
                        let after = &run.text[m.end()..];
                        let after = after.strip_prefix('之').unwrap_or(after);
                        let c = &mut counts[m.pattern().as_usize()];
                        c.0 += 1;
                        if self
                            .lex
                            .realm_words
                            .iter()
                            .any(|w| after.starts_with(w.as_str()))
                        {
                            c.1 += 1;
                        }
                    }
                }
                counts
            })
            .into_iter()
            .fold(vec![(0, 0); persons.len()], |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    x.0 += y.0;
                    x.1 += y.1;
                }
                a
            });
        for (&i, &(all, realm)) in persons.iter().zip(&counts) {
            if realm >= 10 && f64::from(realm) >= REALM_SHARE * f64::from(all) {
                let d = &mut decided[i];
                d.kind = EntityType::Faction;
                d.evidence = std::iter::once("realm").collect();
            }
        }
        decided
    }

    /// Armies named by a word for a side (番兵, 官兵, 贼营: a `side_slang`
    /// character of dict/chars.tsv + a one-character army suffix; a word
    /// of dict/slang_armies.txt, 鬼子, 鞑子; or a modern state's short
    /// name, `state_short`, + 军 or 兵: 日军) are
    /// generic words, but a book that uses one as much as its named armies
    /// (at least `SLANG_SHARE` of the most used army, `MIN_SLANG_ARMY`
    /// times) uses it for an army: the enemy's, as its soldiers call it.
    pub(super) fn add_slang_armies(&self, mut armies: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        let suffixes: Vec<&str> = self
            .lex
            .army_suffixes
            .iter()
            .filter(|(s, &w)| w >= 2 && s.chars().count() == 1)
            .map(|(s, _)| s.as_str())
            .collect();
        let mut slang: Vec<String> = self
            .chars
            .side_slang
            .iter()
            .flat_map(|c| suffixes.iter().map(move |s| format!("{c}{s}")))
            .chain(self.lex.slang_armies.iter().cloned())
            // 日军, 美兵: a modern state's short name, which is no faction
            // of its own in classical text (今日兵马), with 军 or 兵.
            .chain(
                self.chars
                    .state_short
                    .iter()
                    .flat_map(|c| ["军", "兵"].map(|s| format!("{c}{s}"))),
            )
            .filter(|w| !armies.iter().any(|a| a.name == *w || a.aliases.contains(w)))
            .collect();
        slang.sort();
        slang.dedup();
        if slang.is_empty() {
            return armies;
        }
        let counts = count_in(&slang, runs);
        let most = armies
            .iter()
            .map(|a| a.count)
            .chain(counts.iter().copied())
            .max()
            .unwrap_or(0);
        for (w, n) in slang.into_iter().zip(counts) {
            if n >= MIN_SLANG_ARMY && f64::from(n) >= SLANG_SHARE * f64::from(most) {
                armies.push(decided_owned(w, EntityType::Army, 0.6, &["slang"], n));
            }
        }
        armies
    }

    /// Modern units. A book that writes an echelon's commander (团长, 营长,
    /// 连长: `unit_echelon` of dict/chars.tsv + 长) at least `MIN_RANK`
    /// times names its units with the echelon (evidence `unit`); a
    /// chapter-sized text that writes `MIN_RANK` commanders of any echelons
    /// names its units with every echelon:
    /// - a numeral before it, in a series: 一营 and 二营 (or 第三营), each
    ///   said `MIN_NUMBERED_UNIT` times; one alone may be 一团 "a mass",
    ///   一连 "in a row";
    /// - a two-character word before it, said `MIN_NAMED_UNIT` times
    ///   (独立团, 警卫连), unless the echelon starts a word with what
    ///   follows (警卫连忙) or ends one with the stem (安排).
    pub(super) fn add_unit_armies(
        &self,
        mut armies: Vec<Decided>,
        runs: &Runs,
        short: bool,
    ) -> Vec<Decided> {
        let mut echelons: Vec<char> = self.chars.unit_echelon.iter().collect();
        echelons.sort_unstable();
        let ranks: Vec<String> = echelons.iter().map(|e| format!("{e}长")).collect();
        let rank_counts = count_in(&ranks, runs);
        // A chapter writes each commander seldom: there the commanders of
        // all echelons together make the text a modern army's, and every
        // echelon names units, whether or not the chapter writes its own
        // commander (a chapter of 团长 and 营长 sends 三连 and 骑兵连).
        let all_ranks: u32 = rank_counts.iter().sum();
        let echelons: Vec<char> = echelons
            .into_iter()
            .zip(rank_counts)
            .filter(|&(_, n)| n >= MIN_RANK || (short && all_ranks >= MIN_RANK))
            .map(|(e, _)| e)
            .collect();
        let min_named = if short {
            MIN_NAMED_UNIT_SHORT
        } else {
            MIN_NAMED_UNIT
        };
        if echelons.is_empty() {
            return armies;
        }
        // Ordinal numerals only: 两团, 几连 and 百团 are counts.
        let ordinal = |c: char| {
            self.numerals.contains(&c)
                && !self.chars.magnitude.contains(&c)
                && !"两几数".contains(c)
        };
        let stem_char = |c: char| {
            !(self.is_function_char(c)
                || self.numerals.contains(&c)
                || self.chars.pronoun.contains(&c)
                || self.chars.demonstrative.contains(&c)
                || self.chars.self_other.contains(&c)
                || c.is_ascii())
        };
        let found: Vec<(String, UnitName)> = (0..runs.len())
            .into_par_iter()
            .flat_map_iter(|r| {
                let run = runs.at(r);
                let chars: Vec<char> = run.text.chars().collect();
                let mut out = Vec::new();
                for (i, &e) in chars.iter().enumerate() {
                    if !echelons.contains(&e) {
                        continue;
                    }
                    if let Some(&next) = chars.get(i + 1) {
                        if next != '长' && self.vocab.has_word(&format!("{e}{next}")) {
                            continue;
                        }
                    }
                    let digits = chars[..i].iter().rev().take_while(|&&c| ordinal(c)).count();
                    if (1..=4).contains(&digits) {
                        let from = i - digits;
                        // 挤成一团, 缩成了一团: after a verb's complement or an
                        // aspect particle, 一 + echelon is "into a mass", no
                        // unit (a verb alone may send one: 带一营).
                        if digits == 1 && chars[from] == '一' && from > 0 && {
                            let before = chars[from - 1];
                            self.chars.complement.contains(&before)
                                || self.chars.aspect.contains(&before)
                        } {
                            continue;
                        }
                        let (start, how) = if from > 0 && chars[from - 1] == '第' {
                            (from - 1, UnitName::Nth)
                        } else {
                            (from, UnitName::Numbered)
                        };
                        out.push((chars[start..=i].iter().collect::<String>(), how));
                        if how == UnitName::Numbered
                            && from > 0
                            && stem_char(chars[from - 1])
                            && !self.verbish.contains(&chars[from - 1])
                        {
                            out.push((
                                chars[from - 1..=i].iter().collect::<String>(),
                                UnitName::Prefixed,
                            ));
                        }
                        continue;
                    }
                    if i == 0 {
                        // 771团: the numerals end the text before the run.
                        let before = runs.text_before(&run);
                        let n = before
                            .chars()
                            .rev()
                            .take_while(char::is_ascii_digit)
                            .count();
                        if (1..=4).contains(&n) {
                            let number = &before[before.len() - n..];
                            out.push((format!("{number}{e}"), UnitName::Digits));
                        }
                        continue;
                    }
                    if i < 2 || !chars[i - 2..i].iter().all(|&c| stem_char(c)) {
                        continue;
                    }
                    let stem: String = chars[i - 2..i].iter().collect();
                    let seam: String = [chars[i - 1], e].iter().collect();
                    if !self.vocab.has_word(&stem)
                        || self.vocab.has_word(&seam)
                        || self.verbish.contains(&chars[i - 2])
                    {
                        continue;
                    }
                    if i >= 3
                        && self
                            .vocab
                            .has_word(&format!("{}{}", chars[i - 3], chars[i - 2]))
                    {
                        continue;
                    }
                    out.push((format!("{stem}{e}"), UnitName::Word));
                }
                out
            })
            .collect();
        let mut digit_counts: BTreeMap<String, u32> = BTreeMap::new();
        for (w, how) in &found {
            if *how == UnitName::Digits {
                *digit_counts.entry(w.clone()).or_default() += 1;
            }
        }
        let named_by: BTreeMap<String, UnitName> = found.into_iter().collect();
        let known: BTreeSet<&str> = armies
            .iter()
            .flat_map(|a| std::iter::once(&a.name).chain(&a.aliases))
            .map(String::as_str)
            .collect();
        let names: Vec<String> = named_by
            .keys()
            .filter(|w| !known.contains(w.as_str()) && !self.is_generic(w))
            .cloned()
            .collect();
        let counts: Vec<u32> = count_in(&names, runs)
            .into_iter()
            .zip(&names)
            .map(|(n, w)| digit_counts.get(w).copied().unwrap_or(n))
            .collect();
        let count_of: BTreeMap<&str, u32> = names
            .iter()
            .map(String::as_str)
            .zip(counts.iter().copied())
            .collect();
        // A prefixed form the book writes at most mentions of its numbered
        // unit (新二团 for 二团) names the unit; else the prefix is another
        // word's (带一营).
        let prefixed = |w: &str, n: u32| {
            let bare: String = w.chars().skip(1).collect();
            n >= MIN_NUMBERED_UNIT
                && f64::from(n)
                    >= PREFIXED_SHARE * f64::from(count_of.get(bare.as_str()).copied().unwrap_or(0))
        };
        let taken: BTreeSet<String> = names
            .iter()
            .zip(&counts)
            .filter(|(w, &n)| named_by[*w] == UnitName::Prefixed && prefixed(w, n))
            .map(|(w, _)| w.chars().skip(1).collect())
            .collect();
        // Three digits or more (386旅, or 三八五团 read digit by digit, with
        // no 十) are a designation, never a count of units: no series needed.
        let designation = |w: &str| match named_by[w] {
            UnitName::Digits => w.chars().filter(char::is_ascii_digit).count() >= 3,
            UnitName::Numbered => w.chars().count() > 3 && !w.contains('十'),
            _ => false,
        };
        // The numbered units that need a series: 一营, 新二团 (not 二团 then),
        // 38团.
        let in_series = |w: &str, n: u32| match named_by[w] {
            UnitName::Numbered => !taken.contains(w) && !designation(w),
            UnitName::Prefixed => prefixed(w, n),
            UnitName::Digits => !designation(w),
            UnitName::Nth | UnitName::Word => false,
        };
        // Numbered units said often enough, by echelon (designations count
        // too): a series needs two.
        let mut series: BTreeMap<char, u32> = BTreeMap::new();
        for (w, &n) in names.iter().zip(&counts) {
            if (in_series(w, n) || designation(w)) && n >= MIN_NUMBERED_UNIT {
                *series.entry(w.chars().last().expect("a unit")).or_default() += 1;
            }
        }
        // 三营 said again and again stands alone: only 一 before an echelon
        // is also a count or an adverb (一团 a mass, 一连 in a row).
        let alone = |w: &str, n: u32| {
            named_by[w] == UnitName::Numbered && !w.starts_with('一') && n >= MIN_LONE_UNIT
        };
        for (w, &n) in names.iter().zip(&counts) {
            let echelon = w.chars().last().expect("a unit");
            let keep = match named_by[w] {
                _ if in_series(w, n) => {
                    n >= MIN_NUMBERED_UNIT && (series[&echelon] >= 2 || alone(w, n))
                }
                UnitName::Numbered if designation(w) => n >= MIN_NUMBERED_UNIT,
                UnitName::Numbered | UnitName::Prefixed => false,
                UnitName::Digits | UnitName::Nth => n >= MIN_NUMBERED_UNIT,
                UnitName::Word => n >= min_named,
            };
            if keep {
                armies.push(decided_owned(
                    w.clone(),
                    EntityType::Army,
                    0.6,
                    &["unit"],
                    n,
                ));
            }
        }
        armies
    }

    /// The member words of `dict/cues.txt` (门下, 弟子, 掌门), which follow
    /// a sect's name.
    fn member_words(&self) -> Vec<&str> {
        self.lex
            .cues
            .iter()
            .filter(|(_, cs)| cs.iter().any(|c| c.class == CueClass::Member))
            .map(|(w, _)| w.as_str())
            .collect()
    }

    /// Every place a faction suffix of `suffixes` is followed by a member
    /// word (and, with `de`, by 的 + a member word): the run's text before
    /// the suffix and the suffix, in book order.
    fn before_members<'t>(
        &self,
        runs: &Runs<'t>,
        suffixes: &[&str],
        de: bool,
    ) -> Vec<(&'t str, char)> {
        let members = self.member_words();
        if members.is_empty() || suffixes.is_empty() {
            return Vec::new();
        }
        let mut patterns: Vec<String> = Vec::new();
        for s in suffixes {
            for m in &members {
                patterns.push(format!("{s}{m}"));
                if de {
                    patterns.push(format!("{s}的{m}"));
                }
            }
        }
        let ac = runs.matcher(
            patterns.iter().map(String::as_str),
            aho_corasick::MatchKind::LeftmostLongest,
        );
        runs.find_all(&ac)
            .into_iter()
            .map(|m| {
                let text = runs.at(m.run as usize).text;
                let suffix = text[m.start as usize..].chars().next().expect("a match");
                (&text[..m.start as usize], suffix)
            })
            .collect()
    }

    /// The sects of `followed` (name: times followed by members) said with
    /// members `MIN_SECT_MEMBERS` times, no decided name, generic word or
    /// dictionary word (but a proper name, with `proper_ok`), added with
    /// their counts.
    fn push_sects(
        &self,
        mut decided: Vec<Decided>,
        followed: BTreeMap<String, u32>,
        runs: &Runs,
        proper_ok: bool,
    ) -> Vec<Decided> {
        let known: BTreeSet<&str> = decided.iter().map(|d| d.name.as_str()).collect();
        let sects: Vec<String> = followed
            .into_iter()
            .filter(|(w, n)| {
                *n >= MIN_SECT_MEMBERS
                    && !known.contains(w.as_str())
                    && !self.is_generic(w)
                    && (!self.vocab.has_word(w)
                        || (proper_ok && self.vocab.tag(w).starts_with("nz")))
            })
            .map(|(w, _)| w)
            .collect();
        if sects.is_empty() {
            return decided;
        }
        let counts = count_in(&sects, runs);
        for (w, n) in sects.into_iter().zip(counts) {
            decided.push(decided_owned(w, EntityType::Faction, 0.6, &["sect"], n));
        }
        decided
    }

    /// The one-character faction suffixes of at least `min_weight`.
    fn one_char_faction_suffixes(&self, min_weight: u8) -> Vec<&str> {
        self.lex
            .faction_suffixes
            .iter()
            .filter(|(s, &w)| w >= min_weight && s.chars().count() == 1)
            .map(|(s, _)| s.as_str())
            .collect()
    }

    /// Sects and societies with a one-character stem (霞教, 洪帮): the
    /// stem + faction suffix is followed by a member word of dict/cues.txt
    /// (霞教门下, 洪帮弟子) at least `MIN_SECT_MEMBERS` times. A stem that
    /// is a numeral, a function word or a verb (三教, 钦派: 派 "send"), or
    /// that ends a word with the character before it (峨眉派 is not 眉派),
    /// makes none; nor does a dictionary word other than a proper name
    /// (请教, 分派).
    pub(super) fn add_sects(&self, decided: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        let suffixes = self.one_char_faction_suffixes(2);
        let mut followed: BTreeMap<String, u32> = BTreeMap::new();
        for (before, suffix) in self.before_members(runs, &suffixes, false) {
            let mut back = before.chars().rev();
            let Some(stem) = back.next() else { continue };
            if self.is_function_char(stem)
                || self.numerals.contains(&stem)
                || self.verbish.contains(&stem)
                || self.chars.birth_order.contains(&stem)
                || stem.is_ascii()
            {
                continue;
            }
            if let Some(prev) = back.next() {
                if self.vocab.has_word(&format!("{prev}{stem}")) {
                    continue;
                }
            }
            *followed.entry(format!("{stem}{suffix}")).or_default() += 1;
        }
        self.push_sects(decided, followed, runs, true)
    }

    /// Sects and societies with a two-character stem (X门, X派, X宗, X帮 of
    /// `dict/faction_suffixes.txt`, weak suffixes too: 霜月门, 青崖宗)
    /// followed, right away or after 的, by a member word of
    /// `dict/cues.txt` (霜月门弟子, 青崖宗的掌门) at least
    /// `MIN_SECT_MEMBERS` times. The stem holds no function character,
    /// numeral, pronoun or group word and makes no word with the character
    /// before it (出身名门 is no 身名门); the name is no dictionary word
    /// and names no decided person or place, though its stem may be an
    /// ordinary word (云海, 白虎) or end a place (望雁门 holds 雁门).
    pub(super) fn add_named_sects(&self, decided: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        let suffixes = self.one_char_faction_suffixes(1);
        let mut followed: BTreeMap<String, u32> = BTreeMap::new();
        for (before, suffix) in self.before_members(runs, &suffixes, true) {
            let mut back = before.chars().rev();
            let (Some(b), Some(a)) = (back.next(), back.next()) else {
                continue;
            };
            let bad = |c: char| {
                !corpus::is_han(c)
                    || self.is_function_char(c)
                    || self.numerals.contains(&c)
                    || self.chars.pronoun.contains(&c)
                    || self.chars.group.contains(&c)
                    || self.chars.demonstrative.contains(&c)
            };
            if bad(a) || bad(b) {
                continue;
            }
            if let Some(prev) = back.next() {
                if self.vocab.has_word(&format!("{prev}{a}")) {
                    continue;
                }
            }
            *followed.entry(format!("{a}{b}{suffix}")).or_default() += 1;
        }
        self.push_sects(decided, followed, runs, false)
    }

    /// Societies, parties and companies named by a stem of two or more
    /// characters and a strong faction suffix (weight 2 or more in
    /// `dict/faction_suffixes.txt`: X会, X帮, X党, X商会, X镖局), said at
    /// least `MIN_BOUND_FACTION` times, after different characters, whose
    /// stem the text hardly says without the suffix (at most a fifth of
    /// its mentions: 柯香会, where 柯香 alone is no one). Such a stem is
    /// bound to its suffix, as 耶律挞 is to 耶律挞烈: a person or place
    /// read in the stem goes. Not when the suffix and the character before
    /// it make a common word or a verb (有机会, 大社会, 肯赐教), the first
    /// character is a verb's or a longer stem opens with a verb of jieba
    /// (勾结|逆党), a longer name holds most of its mentions
    /// (X教 in X教主), its tail is said far more often alone (知|截教),
    /// the stem holds a function character, pronoun or demonstrative, or a
    /// numeral past its first character (万宝 opens 万宝商会), or the name
    /// is shaped like a person's (a surname and a given name ending with a
    /// common given-name character, `COMMON_GIVEN_MIN`: 韩敬宗).
    pub(super) fn add_bound_factions(
        &self,
        mut decided: Vec<Decided>,
        runs: &Runs,
        m: &Measured,
    ) -> Vec<Decided> {
        let known: BTreeSet<&str> = decided.iter().map(|d| d.name.as_str()).collect();
        let mut named: Vec<(String, String)> = Vec::new();
        for (&w, st) in m.words.iter().zip(&m.stats) {
            if st.aux || st.count < MIN_BOUND_FACTION || st.left_distinct < 2 || known.contains(w) {
                continue;
            }
            let chars: Vec<char> = w.chars().collect();
            if !(3..=5).contains(&chars.len()) || !chars.iter().all(|&c| corpus::is_han(c)) {
                continue;
            }
            let Some(sl) = (1..=2).rev().find(|&l| {
                l < chars.len() - 1
                    && self
                        .lex
                        .faction_suffixes
                        .get(&chars[chars.len() - l..].iter().collect::<String>())
                        .is_some_and(|&weight| weight >= 2)
            }) else {
                continue;
            };
            let cut = chars.len() - sl;
            let stem: String = chars[..cut].iter().collect();
            // A numeral may open a stem (万宝, 百草); it may not end one.
            let bad = |k: usize, c: &char| {
                (self.is_function_char(*c) && !(k == 0 && self.numerals.contains(c)))
                    || (k > 0 && self.numerals.contains(c))
                    || self.chars.pronoun.contains(c)
                    || self.chars.demonstrative.contains(c)
            };
            let joint: String = chars[cut - 1..cut + 1].iter().collect();
            let person_shaped = chars.len() == 3
                && self.surname(&chars, w).is_some_and(|(len, _)| len == 1)
                && self.common_given_char(chars[2]);
            if chars[..cut].iter().enumerate().any(|(k, c)| bad(k, c))
                || self.is_frequent_word(&joint, tagged::COMMON_WORD_FREQ)
                || self.vocab.tag(&joint).starts_with('v')
                || self.verbish.contains(&chars[0])
                || (cut > 2
                    && self
                        .vocab
                        .tag(&w[..chars[0].len_utf8() + chars[1].len_utf8()])
                        .starts_with('v'))
                || self.vocab.has_word(w)
                || self.is_generic(w)
                || person_shaped
            {
                continue;
            }
            named.push((w.to_string(), stem));
        }
        if named.is_empty() {
            return decided;
        }
        // The names and their stems in one matcher (each once): a stem's
        // count is of its mentions outside the name. The decided names that
        // hold one (通天教 in 通天教主) are matched too, so that mentions
        // inside them do not count.
        let holders = decided
            .iter()
            .filter(|d| {
                named
                    .iter()
                    .any(|(w, _)| d.name.contains(w.as_str()) && d.name != *w)
            })
            .map(|d| d.name.clone());
        let counts = count_each(
            named
                .iter()
                .flat_map(|(w, stem)| [w.clone(), stem.clone()])
                .chain(holders),
            runs,
        );
        // The name's tails that still hold the suffix (截教 of 知截教),
        // counted one length of tail at a time (so that a name's tails do
        // not hide each other): a tail said far more often than the name is
        // the name, and the name's first characters a word before it.
        let mut tail_counts: FxMap<String, u32> = FxMap::default();
        for drop in 1..=3 {
            // Two names may share a tail (知截教, 掌截教): `count_each`
            // counts it once.
            let tails: Vec<String> = named
                .iter()
                .filter(|(_, stem)| stem.chars().count() > drop)
                .filter_map(|(w, _)| w.char_indices().nth(drop).map(|(b, _)| w[b..].to_string()))
                .collect();
            if tails.is_empty() {
                break;
            }
            tail_counts.extend(count_each(tails, runs));
        }
        for (w, stem) in named {
            let (n, alone) = (counts[&w], counts[&stem]);
            if n < MIN_BOUND_FACTION || alone * 4 > n {
                continue;
            }
            let skip = stem.chars().count();
            let open = w
                .char_indices()
                .skip(1)
                .take(skip - 1)
                .all(|(b, _)| tail_counts.get(&w[b..]).is_none_or(|&t| 2 * t <= 3 * n));
            if !open {
                continue;
            }
            decided.retain(|d| {
                !(d.kind != EntityType::Faction && w.contains(d.name.as_str()) && d.name != w)
                    || d.count > n + alone
            });
            decided.push(decided_owned(
                w,
                EntityType::Faction,
                0.6,
                &["sfx", "bound"],
                n,
            ));
        }
        decided
    }

    /// Peoples and states the text names by a stem of two characters that
    /// it sets before polity words (class `polity_after` of
    /// dict/chars.tsv: X人, X国, X王, X军, X骑, X营 …): a candidate no rule
    /// decided, said at least `MIN_POLITY_STEM` times, a third of them
    /// before such a word, and before at least `POLITY_STEM_HEADS`
    /// different ones (柯勒人, 柯勒国, 柯勒王庭, 柯勒骑兵). A jieba word, a
    /// stem holding a function character, numeral, pronoun, side slang
    /// (敌国, 本国) or a name already decided (退|宋: a verb and a state),
    /// opening with a verb's character, or a real surname with a common
    /// given-name character (a general's men, 韩青军) makes none.
    pub(super) fn add_polity_stems(
        &self,
        mut decided: Vec<Decided>,
        runs: &Runs,
        m: &Measured,
    ) -> Vec<Decided> {
        let known: BTreeSet<&str> = decided
            .iter()
            .flat_map(|d| std::iter::once(&d.name).chain(&d.aliases))
            .map(String::as_str)
            .collect();
        let stems: Vec<&str> = m
            .words
            .iter()
            .zip(&m.stats)
            .filter(|(&w, st)| {
                let chars: Vec<char> = w.chars().collect();
                !st.aux
                    && st.count >= MIN_POLITY_STEM
                    && chars.len() == 2
                    && chars.iter().all(|&c| {
                        corpus::is_han(c)
                            && !self.is_function_char(c)
                            && !self.numerals.contains(&c)
                            && !self.chars.pronoun.contains(&c)
                            && !self.chars.side_slang.contains(&c)
                            && !self.chars.self_other.contains(&c)
                    })
                    && !known.contains(w)
                    && !chars
                        .iter()
                        .any(|c| known.contains(c.encode_utf8(&mut [0; 4]) as &str))
                    && !self.verbish.contains(&chars[0])
                    && !self.vocab.has_word(w)
                    && !self.is_generic(w)
                    && !(self
                        .surname(&chars, w)
                        .is_some_and(|(_, weight)| weight >= 2)
                        && self.common_given_char(chars[1]))
            })
            .map(|(&w, _)| w)
            .collect();
        if stems.is_empty() {
            return decided;
        }
        let matcher = runs.matcher(&stems, aho_corasick::MatchKind::LeftmostLongest);
        // Per stem: its mentions, those before a polity word, and which.
        let mut heads: Vec<(u32, u32, BTreeSet<char>)> = vec![(0, 0, BTreeSet::new()); stems.len()];
        for hit in runs.find_all(&matcher) {
            let run = runs.at(hit.run as usize);
            let h = &mut heads[hit.pattern as usize];
            h.0 += 1;
            if let Some(next) = run.text[hit.end as usize..].chars().next() {
                if self.chars.polity_after.contains(&next) {
                    h.1 += 1;
                    h.2.insert(next);
                }
            }
        }
        for (w, (n, before, kinds)) in stems.into_iter().zip(heads) {
            if n >= MIN_POLITY_STEM && 3 * before >= n && kinds.len() >= POLITY_STEM_HEADS {
                decided.push(decided_owned(
                    w.to_string(),
                    EntityType::Faction,
                    0.6,
                    &["poly"],
                    n,
                ));
            }
        }
        decided
    }

    /// Empires and dynasties named by a two-character stem and a word of
    /// dict/empire_words.txt (大秦帝国, 大X皇朝), said at least
    /// `MIN_EMPIRE` times. The stem holds no function character, numeral
    /// or pronoun, is no ordinary word (封建|帝国) and names none of the
    /// book's persons (韩烈|帝国 where 帝国 would be a man's name).
    pub(super) fn add_empires(&self, mut decided: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        if self.lex.empire_words.is_empty() {
            return decided;
        }
        let ac = runs.matcher(
            self.lex.empire_words.iter().map(String::as_str),
            aho_corasick::MatchKind::LeftmostLongest,
        );
        let known: BTreeSet<&str> = decided.iter().map(|d| d.name.as_str()).collect();
        let persons: BTreeSet<&str> = decided
            .iter()
            .filter(|d| d.kind == EntityType::Person)
            .map(|d| d.name.as_str())
            .collect();
        let mut found: BTreeMap<String, u32> = BTreeMap::new();
        for m in runs.find_all(&ac) {
            let run = runs.at(m.run as usize);
            let (start, end) = (m.start as usize, m.end as usize);
            let mut stem: Vec<char> = run.text[..start].chars().rev().take(2).collect();
            stem.reverse();
            if stem.len() < 2
                || stem.iter().any(|c| {
                    self.is_function_char(*c)
                        || self.numerals.contains(c)
                        || self.chars.pronoun.contains(c)
                })
            {
                continue;
            }
            let stem: String = stem.into_iter().collect();
            if persons.contains(stem.as_str()) || self.tag_of(&stem) == Some(Tag::Other) {
                continue;
            }
            *found
                .entry(format!("{stem}{}", &run.text[start..end]))
                .or_default() += 1;
        }
        let empires: Vec<(String, u32)> = found
            .into_iter()
            .filter(|(w, n)| *n >= MIN_EMPIRE && !known.contains(w.as_str()) && !self.is_generic(w))
            .collect();
        for (w, n) in empires {
            decided.push(Decided {
                name: w,
                kind: EntityType::Faction,
                score: 0.7,
                evidence: std::iter::once("sfx").collect(),
                aliases: BTreeSet::new(),
                count: n,
            });
        }
        decided
    }

    /// Sects named by their heads' titles: a name whose last character
    /// the next words repeat before 主 (霜月门门主, 霜月阁少阁主, 石匠帮帮主,
    /// 霜月门的门主)
    /// is an organisation with a head, whatever its suffix usually names
    /// (门 a gate, 阁 a pavilion, 谷 a valley) and however ordinary its stem
    /// (石匠). The name is the two- or three-character stem + that
    /// character the book says more often; it must be said at least twice
    /// and be no ordinary word or person. A place so named becomes a
    /// faction unless the book moves to it more often than it names its
    /// head; places and factions said only inside it go (月门 of 霜月门).
    /// A town's lord (X城城主, X州州主: class `city` of dict/chars.tsv)
    /// names no sect.
    pub(super) fn add_titled_sects(
        &self,
        mut decided: Vec<Decided>,
        runs: &Runs,
        m: &Measured,
    ) -> Vec<Decided> {
        let mut heads: BTreeMap<String, u32> = BTreeMap::new();
        for run in runs.iter() {
            // 主 is rare: found by a text search, not character by character.
            for (byte, _) in run.text.match_indices('主') {
                let Ok(i) = run.off.binary_search(&(byte as u32)) else {
                    continue;
                };
                if i < 3 {
                    continue;
                }
                let suffix = run.ch(i - 1);
                // X门门主, X阁少阁主, or X门的门主 (but X县的县主 is a
                // county's magistrate).
                let between = run.ch(i - 2);
                let end = if between == suffix {
                    i - 1
                } else if (between == '少'
                    || (between == '的' && !self.chars.settlement.contains(&suffix))
                    // X山庄韩庄主: the head's surname between.
                    || self.surnames.contains_key(between.encode_utf8(&mut [0; 4]) as &str))
                    && i >= 4
                    && run.ch(i - 3) == suffix
                {
                    i - 2
                } else {
                    continue;
                };
                // X城城主 is the lord of a town, which stays a place.
                if self.is_function_char(suffix) || self.chars.city.contains(&suffix) {
                    continue;
                }
                // The stem: two or three characters, none a function
                // character or numeral; the form the book says more often;
                // of two said as often, the longer (听松山庄, never 松山庄
                // alone), unless it starts with a verb (入X门).
                let best = (3..=4)
                    .filter(|&len| end >= len)
                    .map(|len| run.sub(end - len, end))
                    .filter(|w| {
                        w.chars()
                            .all(|c| !self.is_function_char(c) && !self.numerals.contains(&c))
                    })
                    .max_by_key(|w| {
                        let verb_first =
                            w.chars().next().is_some_and(|c| self.verbish.contains(&c));
                        (m.count(w), !verb_first && w.chars().count() == 4)
                    });
                if let Some(w) = best.filter(|w| m.count(w) >= MIN_TITLED_SECT) {
                    *heads.entry(w.to_string()).or_default() += 1;
                }
            }
        }
        for (w, n_heads) in heads {
            if self.is_generic(&w) || self.tag_of(&w) == Some(Tag::Other) {
                continue;
            }
            let count = m.count(&w);
            let moved = m.stat(&w).map_or(0, |st| st.mov + st.loc);
            match decided.iter_mut().find(|d| d.name == w) {
                Some(d) if d.kind == EntityType::Place && n_heads >= moved => {
                    d.kind = EntityType::Faction;
                    d.evidence.insert("head");
                }
                Some(_) => continue,
                None => decided.push(Decided {
                    name: w.clone(),
                    kind: EntityType::Faction,
                    score: 0.6,
                    evidence: std::iter::once("head").collect(),
                    aliases: BTreeSet::new(),
                    count,
                }),
            }
            decided.retain(|d| {
                d.name == w
                    || d.kind == EntityType::Person
                    || !w.contains(d.name.as_str())
                    || d.count > count
            });
        }
        decided
    }

    /// Single-character factions with polity evidence: an army stem (秦军),
    /// an X人 form listed in the lexicon (金人), a polity context (伐燕,
    /// 入宋) or a run of them (宋金辽元).
    pub(super) fn add_factions(&self, mut decided: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
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
                        let next = if i + 1 < n { run.sub(i + 1, i + 2) } else { "" };
                        // 伐燕失利: the polity stands alone after the verb.
                        let alone_after = i + 1 == n
                            || self.is_function_char(run.ch(i + 1))
                            || !self.vocab.has_word(run.sub(i, (i + 2).min(n)));
                        // 弃暗投明 is an idiom, not 投 + a state: no longer
                        // dictionary word spans the verb and the character.
                        let in_idiom = |i: usize| {
                            (3..=4).any(|len: usize| {
                                (i.saturating_sub(len - 1)..i)
                                    .filter(|&a| a + len <= n)
                                    .any(|a| self.vocab.has_word(run.sub(a, a + len)))
                            })
                        };
                        let polity_before = i > 0
                            && self.chars.polity_before.contains(&run.ch(i - 1))
                            && !self.vocab.has_word(run.sub(i - 1, i + 1))
                            && alone_after
                            && !in_idiom(i);
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
}

/// Whether a separator ends a sentence (for the factions said beside a
/// homograph).
fn ends_sentence(c: char) -> bool {
    matches!(c, '。' | '！' | '？' | '!' | '?' | '\n')
}

/// What a listed polity that is also an ordinary phrase (大明, 明朝) needs
/// at one of its mentions to be a faction; see `Recognizer::polity_read`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct PolityContext {
    /// A polity word after it (国 朝 军 …), a title (大明天子) or an era
    /// (明朝末年, 大明年间).
    pub after: bool,
    /// A polity verb, pronoun or movement word before it (投大明, 我大明,
    /// 往许国).
    pub before: bool,
    /// Of those, a strong polity verb or a movement word (伐X国, 往X国;
    /// not the weak 亡 of 亡身丧国, nor a pronoun).
    pub before_strong: bool,
    /// Another of the book's factions in the same sentence.
    pub beside_faction: bool,
}

impl PolityContext {
    pub(super) fn reads_as_polity(self) -> bool {
        self.after || self.before || self.beside_faction
    }
}

impl Recognizer {
    /// Whether `w` names a family's village: a surname of weight at least
    /// 2, 家 and a village character (柯家堡, 欧阳家寨).
    pub(super) fn family_village(&self, w: &str) -> bool {
        let chars: Vec<char> = w.chars().collect();
        self.surname(&chars, w).is_some_and(|(sl, weight)| {
            weight >= 2
                && chars.len() == sl + 2
                && chars[sl] == '家'
                && self.chars.village.contains(&chars[sl + 1])
        })
    }

    /// A family's village the rules and the model left undecided (said
    /// once or twice, with no cue: 往苏家村去) is a place, unless a word
    /// runs across its edge (柯家庄稼) or it is part of a decided name.
    pub(super) fn add_family_villages(&self, first: Vec<Decided>, m: &Measured) -> Vec<Decided> {
        let known: HashSet<&str> = first.iter().map(|d| d.name.as_str()).collect();
        let added: Vec<Decided> = m
            .words
            .iter()
            .zip(&m.stats)
            .filter(|&(&w, st)| {
                !st.aux
                    && st.count > 0
                    && 2 * (st.left_bad + st.right_bad) < st.count
                    && self.family_village(w)
                    && !known.iter().any(|k| k.contains(w))
            })
            .map(|(&w, st)| decided(w, EntityType::Place, 0.5, &["sfx", "sur"], st))
            .collect();
        with_added(first, added)
    }

    /// Settlements written in an address: a candidate ending in a
    /// `settlement` character of dict/chars.tsv (柯溪村, 岩门镇) written
    /// right after a decided place ending in a `city` character (常州府,
    /// 武进县) is a place, though said once and with no cue (常州府武进县
    /// 柯溪村姓韩): an address runs from the larger place to the smaller.
    /// The stem is two characters or more, opens with no function
    /// character or cue (`stem_ok`), holds no function character and does
    /// not end with a position (州城南|下寨: camped south of the city);
    /// the settlement ends with no title (延安府|汤知寨: a surname and 知寨,
    /// the fort's commander). The model does not overrule it; a word
    /// running across its edge at half its mentions does.
    pub(super) fn add_addressed_places(
        &self,
        first: Vec<Decided>,
        runs: &Runs,
        m: &Measured,
    ) -> Vec<Decided> {
        let cities: Vec<&str> = first
            .iter()
            .filter(|d| {
                d.kind == EntityType::Place
                    && d.name.chars().count() >= 2
                    && d.name
                        .chars()
                        .next_back()
                        .is_some_and(|c| self.chars.city.contains(&c))
            })
            .map(|d| d.name.as_str())
            .collect();
        if cities.is_empty() {
            return first;
        }
        let ac = runs.matcher(cities.iter(), aho_corasick::MatchKind::LeftmostLongest);
        let mut addressed: Vec<usize> = Vec::new();
        for hit in runs.find_all(&ac) {
            let run = runs.at(hit.run as usize);
            let j = run.off.partition_point(|&o| o < hit.end);
            // The longest settlement the candidates hold, of 3 to 5 characters.
            let found = (3..=5).rev().find_map(|len| {
                if j + len > run.len() || !self.chars.settlement.contains(&run.ch(j + len - 1)) {
                    return None;
                }
                let w = run.sub(j, j + len);
                let stem = run.sub(j, j + len - 1);
                let titled =
                    (2..len).any(|k| self.titles.contains_key(run.sub(j + len - k, j + len)));
                m.id(w)
                    .filter(|&i| !m.stats[i].aux && !titled && self.addressed_stem(stem))
            });
            addressed.extend(found);
        }
        addressed.sort_unstable();
        addressed.dedup();
        let known: HashSet<&str> = first.iter().map(|d| d.name.as_str()).collect();
        let added: Vec<Decided> = addressed
            .into_iter()
            .map(|i| (m.words[i], &m.stats[i]))
            .filter(|&(w, st)| {
                2 * (st.left_bad + st.right_bad) < st.count && !known.iter().any(|k| k.contains(w))
            })
            .map(|(w, st)| decided(w, EntityType::Place, 0.6, &["sfx", "within"], st))
            .collect();
        with_added(first, added)
    }

    /// Whether `stem` may be the stem of a settlement in an address
    /// (`add_addressed_places`).
    fn addressed_stem(&self, stem: &str) -> bool {
        let chars: Vec<char> = stem.chars().collect();
        chars.len() >= 2
            && self.stem_ok(stem, false)
            && !chars.iter().any(|&c| self.is_function_char(c))
            && !self.chars.position_tail.contains(&chars[chars.len() - 1])
    }

    /// Adepts named by a sobriquet and a religious title (青霞真人, 玄冥圣母)
    /// that the rules and the model left undecided (`titled_sobriquet`)
    /// are persons; when the sobriquet alone is a decided person (青霞),
    /// the titled form is that person's alias instead.
    pub(super) fn add_titled_sobriquets(
        &self,
        mut first: Vec<Decided>,
        m: &Measured,
    ) -> Vec<Decided> {
        let titled: Vec<(&str, &Stat)> = {
            let known: HashSet<&str> = first.iter().map(|d| d.name.as_str()).collect();
            m.words
                .iter()
                .zip(&m.stats)
                .filter(|&(&w, st)| !st.aux && !known.contains(w) && self.titled_sobriquet(w, st))
                .map(|(&w, st)| (w, st))
                .collect()
        };
        if titled.is_empty() {
            return first;
        }
        for (w, st) in titled {
            let stem: String = w.chars().take(w.chars().count() - 2).collect();
            match first
                .iter_mut()
                .find(|d| d.kind == EntityType::Person && d.name == stem)
            {
                Some(person) => {
                    person.aliases.insert(w.to_string());
                }
                None => first.push(decided(w, EntityType::Person, 0.5, &["ttl"], st)),
            }
        }
        first.sort_by(|a, b| a.name.cmp(&b.name).then(a.kind.cmp(&b.kind)));
        first
    }

    /// Names of a shape the rules read warily, that the rules and the
    /// model left undecided, are persons when `shape` holds: women named
    /// by their family (`clan_name`: 于氏), a function-character surname +
    /// a common given name (`function_surname_name`: 余元). Not a family
    /// whose children the book names after it at a third of the mentions
    /// (柯氏弟兄, 柯氏兄弟: several people).
    pub(super) fn add_shaped_names(
        &self,
        first: Vec<Decided>,
        m: &Measured,
        shape: fn(&Recognizer, &str, &Stat) -> bool,
        evidence: &[&'static str],
    ) -> Vec<Decided> {
        let known: HashSet<&str> = first.iter().map(|d| d.name.as_str()).collect();
        let added: Vec<Decided> = m
            .words
            .iter()
            .zip(&m.stats)
            .enumerate()
            .filter(|&(i, (&w, st))| {
                !st.aux
                    && !known.contains(w)
                    && shape(self, w, st)
                    && super::features::right_share(m, i, &self.chars.sibling) * 3.0 < 1.0
            })
            .map(|(_, (&w, st))| decided(w, EntityType::Person, 0.5, evidence, st))
            .collect();
        with_added(first, added)
    }

    /// Named battle arrays (`named_array`: 玄冰阵) are places, unless the
    /// stem is a decided person's name (a general's array, 柯北辰阵, is
    /// his formation) or the string is part of a decided name. The book is
    /// read for them directly: the proposer offers a stem + 阵 only when
    /// a cue happens to anchor it.
    pub(super) fn add_named_arrays(&self, first: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        let seen = self.arrays_seen(runs);
        let known = NameParts::new(first.iter().map(|d| d.name.as_str()));
        let persons: Vec<&str> = first
            .iter()
            .filter(|d| d.kind == EntityType::Person)
            .map(|d| d.name.as_str())
            .collect();
        let added: Vec<Decided> = seen
            .iter()
            .filter(|(w, s)| {
                !known.in_one(w)
                    && !persons.iter().any(|p| {
                        let stem: String = w.chars().take(2).collect();
                        w.starts_with(p) || p.ends_with(stem.as_str())
                    })
                    && self.named_array(w, s)
            })
            .map(|(w, s)| {
                decided_owned(w.clone(), EntityType::Place, 0.5, &["sfx", "mov"], s.count)
            })
            .collect();
        with_added(first, added)
    }

    /// In a chapter-sized text, an adept named by a two-character sobriquet
    /// and a religious title (`dict/titles.txt`: 青霞真人, 玄冥天尊), said
    /// at least `CHAPTER_ADEPT_MIN` times after different characters (or
    /// opening every clause it is in), is a
    /// person though no cue stands beside it: a book says such a name
    /// often enough for `titled_sobriquet`, a chapter two or three times.
    /// The sobriquet holds no function character, verb, numeral, pointer
    /// or polite word (是|罗, 出家|做|和尚, 一个|和尚, 本师|真人), is no title and
    /// no ordinary word of the dictionary (住持|真人), though it may be a
    /// place's or a person's (南岳|真君).
    pub(super) fn add_chapter_adepts(
        &self,
        first: Vec<Decided>,
        runs: &Runs,
        m: &Measured,
    ) -> Vec<Decided> {
        if m.total_chars >= SHORT_TEXT {
            return first;
        }
        // Each sobriquet + title: its count and the characters before it.
        let mut seen: BTreeMap<String, (u32, BTreeSet<char>)> = BTreeMap::new();
        for run in runs.iter() {
            let n = run.len();
            for j in 2..n.saturating_sub(1) {
                if !self.lex.religious_titles.contains(run.sub(j, j + 2)) {
                    continue;
                }
                let cell = seen.entry(run.sub(j - 2, j + 2).to_string()).or_default();
                cell.0 += 1;
                cell.1.insert(if j > 2 { run.ch(j - 3) } else { '。' });
            }
        }
        let mut first = first;
        let mut added = Vec::new();
        for (w, (count, left)) in seen {
            // After different characters, or opening every clause it is in
            // (a count or a role has the same word before it: 一个|道人).
            let opens_clauses = left.len() == 1 && left.contains(&'。');
            if count < CHAPTER_ADEPT_MIN || !(left.len() >= 2 || opens_clauses) {
                continue;
            }
            let stem: String = w.chars().take(2).collect();
            // The sobriquet alone already a person (柯崖 of 柯崖真人): the
            // titled form is how the chapter also names him.
            if let Some(person) = first
                .iter_mut()
                .find(|d| d.kind == EntityType::Person && d.name == stem)
            {
                person.aliases.insert(w);
                continue;
            }
            if self.adept_sobriquet(&stem, count >= CHAPTER_ADEPT_SURE)
                && !first
                    .iter()
                    .any(|k| k.name.contains(w.as_str()) || w.contains(k.name.as_str()))
            {
                added.push(decided_owned(w, EntityType::Person, 0.5, &["ttl"], count));
            }
        }
        with_added(first, added)
    }

    /// Whether two characters can be an adept's sobriquet before a
    /// religious title in a chapter (`add_chapter_adepts`): a book's
    /// sobriquet (`sobriquet_stem`) with no function character, no
    /// one-character verb and no polite word, and no ordinary word of the
    /// dictionary unless a place's or a person's. With `said_often` (the
    /// name said `CHAPTER_ADEPT_SURE` times), a character jieba tags a
    /// verb is let in: sobriquets take them (玄松, 慧衍), and a verb phrase
    /// said so often after different characters is rare.
    pub(super) fn adept_sobriquet(&self, stem: &str, said_often: bool) -> bool {
        self.sobriquet_stem(stem)
            && stem.chars().all(|c| {
                corpus::is_han(c)
                    && !self.is_function_char(c)
                    && !self.verbish.contains(&c)
                    && !self.chars.self_other.contains(&c)
                    && (said_often || self.vocab.tag(c.encode_utf8(&mut [0u8; 4])) != "v")
            })
            && (!self.vocab.has_word(stem)
                || matches!(
                    self.tag_of(stem),
                    Some(Tag::Place | Tag::Person | Tag::Proper)
                ))
    }

    /// Every two characters + an array character in the book, with what
    /// is said around them (`ArraySeen`), per slice in parallel.
    fn arrays_seen(&self, runs: &Runs) -> BTreeMap<String, ArraySeen> {
        let punct = '。';
        let side = |c: char| if corpus::is_han(c) { c } else { punct };
        runs.slices()
            .par_iter()
            .map(|part| {
                let mut local: BTreeMap<String, ArraySeen> = BTreeMap::new();
                for run in part.iter() {
                    let n = run.len();
                    for j in 2..n {
                        if !self.chars.array.contains(&run.ch(j)) {
                            continue;
                        }
                        let s = j - 2;
                        let cell = local.entry(run.sub(s, j + 1).to_string()).or_default();
                        cell.count += 1;
                        cell.left
                            .insert(if s > 0 { side(run.ch(s - 1)) } else { punct });
                        cell.right.insert(if j + 1 < n {
                            side(run.ch(j + 1))
                        } else {
                            punct
                        });
                        let entered = self.cue_next_to(&run, s, false, CueClass::Movement);
                        cell.entered += u32::from(entered);
                    }
                }
                local
            })
            .reduce(BTreeMap::new, |a, b| merge_seen(a, b, ArraySeen::absorb))
    }

    /// Names of a surname + a function character + one more (柯不言:
    /// `function_char_name`), which no rule proposes, are persons unless
    /// they are part of a decided name. The book is read for them directly.
    pub(super) fn add_function_char_names(&self, first: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        let seen = self.function_char_names_seen(runs);
        let known = NameParts::new(first.iter().map(|d| d.name.as_str()));
        let added: Vec<Decided> = seen
            .iter()
            .filter(|(w, s)| !known.in_one(w) && self.function_char_name(w, s))
            .map(|(w, s)| {
                decided_owned(w.clone(), EntityType::Person, 0.5, &["sur", "say"], s.count)
            })
            .collect();
        with_added(first, added)
    }

    /// Every surname + function character + one more character in the
    /// book (`NameSeen`), per slice in parallel.
    fn function_char_names_seen(&self, runs: &Runs) -> BTreeMap<String, NameSeen> {
        runs.slices()
            .par_iter()
            .map(|part| {
                let mut local: BTreeMap<String, NameSeen> = BTreeMap::new();
                let mut buf = [0u8; 4];
                for run in part.iter() {
                    let n = run.len();
                    for i in 0..n.saturating_sub(2) {
                        if !self.chars.name_function.contains(&run.ch(i + 1))
                            || !self
                                .surnames
                                .contains_key(run.ch(i).encode_utf8(&mut buf) as &str)
                        {
                            continue;
                        }
                        let cell = local.entry(run.sub(i, i + 3).to_string()).or_default();
                        cell.count += 1;
                        cell.left.insert(if i > 0 { run.ch(i - 1) } else { '。' });
                        let j = i + 3;
                        let said = self.cue_next_to(&run, j, true, CueClass::Speech)
                            || (j == n && matches!(run.after, '：' | ':'));
                        cell.said += u32::from(said);
                    }
                }
                local
            })
            .reduce(BTreeMap::new, |a, b| merge_seen(a, b, NameSeen::absorb))
    }

    /// Whether a cue of `class` (weight at least 2) starts at character
    /// `at` of a run (`after`) or ends there.
    fn cue_next_to(&self, run: &Run, at: usize, after: bool, class: CueClass) -> bool {
        let room = if after { run.len() - at } else { at };
        (1..=MAX_CUE.min(room)).any(|clen| {
            let text = if after {
                run.sub(at, at + clen)
            } else {
                run.sub(at - clen, at)
            };
            self.cues
                .get(text)
                .is_some_and(|c| c[class_index(class)] >= 2)
        })
    }

    /// Listed factions that are also ordinary phrases
    /// (`dict/faction_homographs.txt`: 天色大明 "broad daylight", 明朝
    /// "tomorrow morning") stay factions only where at least one mention
    /// reads as a polity (`PolityContext`); a book that never does uses the
    /// phrase.
    pub(super) fn drop_homograph_factions(
        &self,
        decided: Vec<Decided>,
        runs: &Runs,
    ) -> Vec<Decided> {
        let homographs: Vec<String> = decided
            .iter()
            .filter(|d| {
                d.kind == EntityType::Faction && self.lex.faction_homographs.contains(&d.name)
            })
            .map(|d| d.name.clone())
            .collect();
        if homographs.is_empty() {
            return decided;
        }
        // The book's other factions of two or more characters, by any name.
        let others: Vec<String> = decided
            .iter()
            .filter(|d| d.kind == EntityType::Faction && !homographs.contains(&d.name))
            .flat_map(|d| std::iter::once(&d.name).chain(d.aliases.iter()))
            .filter(|w| w.chars().count() >= 2 && !homographs.contains(*w))
            .cloned()
            .collect();
        let read = any_mention_reads(&homographs, runs, |run, i, j, hit| {
            let sentence = || {
                let r = hit.run as usize;
                let mut a = r;
                while a > 0 && {
                    let prev = runs.at(a - 1);
                    prev.chapter == run.chapter && !ends_sentence(prev.after)
                } {
                    a -= 1;
                }
                let mut b = r;
                while b + 1 < runs.len()
                    && !ends_sentence(runs.at(b).after)
                    && runs.at(b + 1).chapter == run.chapter
                {
                    b += 1;
                }
                (a..=b).map(|k| runs.at(k).text).collect::<Vec<_>>()
            };
            self.polity_read(run, i, j, &others, sentence)
                .reads_as_polity()
        });
        decided
            .into_iter()
            .filter(|d| {
                homographs
                    .iter()
                    .position(|w| *w == d.name)
                    .is_none_or(|h| read[h])
            })
            .collect()
    }

    /// A place named X国 is a state, a faction, where one mention reads as
    /// a polity: a polity word or title after it (`polity_read`: X国王,
    /// X国元帅), a strong polity verb or a movement cue before it (伐X国,
    /// 往X国; not the weak 亡 of 亡身丧国). The
    /// place suffix 国 made it a place (黑水国, 森罗国); and a state named
    /// with 大 (大X国) is one name of the faction X. Said with none of
    /// those, it stays (身丧国亡, 消耗国帑 are no states either way).
    pub(super) fn states_as_factions(
        &self,
        mut decided: Vec<Decided>,
        runs: &Runs,
    ) -> Vec<Decided> {
        let states: Vec<String> = decided
            .iter()
            .filter(|d| {
                d.kind == EntityType::Place && d.name.ends_with('国') && d.name.chars().count() >= 2
            })
            .map(|d| d.name.clone())
            .collect();
        if states.is_empty() {
            return decided;
        }
        let read = any_mention_reads(&states, runs, |run, i, j, _| {
            let read = self.polity_read(run, i, j, &[], Vec::new);
            read.after || read.before_strong
        });
        for d in &mut decided {
            if let Some(h) = states.iter().position(|w| *w == d.name) {
                if read[h] && d.kind == EntityType::Place {
                    d.kind = EntityType::Faction;
                    d.evidence.insert("state");
                }
            }
        }
        decided
    }

    /// Whether a place is one character and a part or kind of house
    /// (`house_part` of `dict/chars.tsv`: 书房, 花厅, 佛堂, 后院), or the
    /// gate of a building or town (a `house_part` or `settlement`
    /// character + 门: 府门, 城门, 院门; not 午门 nor 北门), no named
    /// place: a named building has a longer stem (集贤堂) or a family's
    /// name (樊楼: a surname of weight 2 or more; 花 and 后 are rare ones,
    /// 花厅 and 后院 house parts), and a listed place is kept.
    pub(super) fn house_part(&self, w: &str) -> bool {
        let mut chars = w.chars();
        match (chars.next(), chars.next(), chars.next()) {
            // 府门, 城门, 院门: the gate of a building or a town.
            (Some(stem), Some('门'), None) => {
                (self.chars.settlement.contains(&stem) || self.chars.house_part.contains(&stem))
                    && !self.lex.places.contains(w)
            }
            (Some(stem), Some(part), None) => {
                self.chars.house_part.contains(&part)
                    && self
                        .surnames
                        .get(stem.encode_utf8(&mut [0u8; 4]) as &str)
                        .is_none_or(|&weight| weight < 2)
                    && !self.lex.places.contains(w)
            }
            _ => false,
        }
    }

    /// Drops the places that are a part or kind of house (`house_part`).
    pub(super) fn drop_house_parts(&self, mut decided: Vec<Decided>) -> Vec<Decided> {
        decided.retain(|d| d.kind != EntityType::Place || !self.house_part(&d.name));
        decided
    }

    /// Listed places that are also ordinary phrases
    /// (`dict/place_homographs.txt`: 上京 "go up to the capital", 河内 "in
    /// the river") stay places only where at least one mention reads as a
    /// place: a strong movement verb right before it (到, 往, 攻打: not 在
    /// or 于, which the phrase takes too), or a title or a settlement
    /// character right after it (河内太守, 上京城).
    pub(super) fn drop_homograph_places(
        &self,
        mut decided: Vec<Decided>,
        runs: &Runs,
    ) -> Vec<Decided> {
        let homographs: Vec<&str> = decided
            .iter()
            .filter(|d| d.kind == EntityType::Place && self.lex.place_homographs.contains(&d.name))
            .map(|d| d.name.as_str())
            .collect();
        if homographs.is_empty() {
            return decided;
        }
        let read = count_in_where(&homographs, runs, |text, start, end| {
            let before = &text[..start];
            let moved = before
                .char_indices()
                .rev()
                .take(2)
                .any(|(k, _)| self.cue(&before[k..], CueClass::Movement) >= 3);
            let after: Vec<char> = text[end..].chars().take(3).collect();
            let titled = (2..=after.len()).any(|k| {
                self.titles
                    .contains_key(&after[..k].iter().collect::<String>())
            });
            let settled = after
                .first()
                .is_some_and(|c| self.chars.settlement.contains(c));
            moved || titled || settled
        });
        let unread: HashSet<String> = homographs
            .iter()
            .zip(&read)
            .filter(|(_, &r)| r == 0)
            .map(|(w, _)| w.to_string())
            .collect();
        decided.retain(|d| !(d.kind == EntityType::Place && unread.contains(&d.name)));
        decided
    }

    /// Listed places decided on the list alone that jieba never reads as
    /// a word of their clause: 东西|藏 (西藏), 太行山|西麓 (山西), 运河|南下
    /// (河南), 太湖石, 福如东海. A place read whole at one mention at least
    /// stays (天下|山东, 过|长江, 苏州府).
    pub(super) fn drop_split_places(&self, mut decided: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        let listed: Vec<&str> = decided
            .iter()
            .filter(|d| {
                d.kind == EntityType::Place && d.evidence.len() == 1 && d.evidence.contains("lex")
            })
            .map(|d| d.name.as_str())
            .collect();
        if listed.is_empty() {
            return decided;
        }
        let read = count_in_where(&listed, runs, |text, start, end| {
            // A window of a few characters on each side is enough for
            // jieba to choose between the place and its neighbours.
            let from = text[..start]
                .char_indices()
                .rev()
                .nth(SPLIT_WINDOW - 1)
                .map_or(0, |(k, _)| k);
            let to = text[end..]
                .char_indices()
                .nth(SPLIT_WINDOW)
                .map_or(text.len(), |(k, _)| end + k);
            // 苏州|府, 济南|人: a word that goes on with a place suffix or
            // 人 still reads the place; so does a rare dictionary word
            // (代州雁 of 代州雁门县, an artefact of jieba's list).
            self.vocab
                .read_from(&text[from..to], start - from, end - from)
                .is_some_and(|rest| {
                    rest.is_empty()
                        || rest == "人"
                        || self.lex.place_suffixes.contains_key(rest)
                        || self.vocab.suggest_freq(&text[start..end + rest.len()]) < RARE_WORD
                })
        });
        let split: HashSet<String> = listed
            .iter()
            .zip(&read)
            .filter(|(_, &r)| r == 0)
            .map(|(w, _)| w.to_string())
            .collect();
        decided.retain(|d| !(d.kind == EntityType::Place && split.contains(&d.name)));
        decided
    }

    /// How the mention at characters `i..j` of `run` reads: its neighbours
    /// in the run, and (asked only when they say nothing) whether one of
    /// `others` is in its sentence.
    pub(super) fn polity_read<'t>(
        &self,
        run: &Run<'t>,
        i: usize,
        j: usize,
        others: &[String],
        sentence: impl FnOnce() -> Vec<&'t str>,
    ) -> PolityContext {
        let n = run.len();
        let after = j < n && {
            let next = run.ch(j);
            self.chars.polity_after.contains(&next)
                || matches!(next, '年' | '末' | '初')
                || (j + 2..=(j + 3).min(n)).any(|k| self.titles.contains_key(run.sub(j, k)))
        };
        let before_strong = i > 0
            && (self.chars.polity_before.contains(&run.ch(i - 1))
                || (1..=2.min(i)).any(|k| self.cue(run.sub(i - k, i), CueClass::Movement) > 0));
        let before = before_strong
            || i > 0 && {
                let prev = run.ch(i - 1);
                self.chars.polity_before_weak.contains(&prev) || self.chars.pronoun.contains(&prev)
            };
        let beside_faction = !(after || before)
            && sentence()
                .iter()
                .any(|text| others.iter().any(|w| text.contains(w.as_str())));
        PolityContext {
            after,
            before,
            before_strong,
            beside_faction,
        }
    }

    /// Drops the lexicon's places and factions that the book only says
    /// inside set phrases: at every occurrence, a four-character word of
    /// the dictionary that is no name covers it (西藏 in 东躲西藏 "hide
    /// east and west", 长春 in 四季长春 would be one).
    pub(super) fn drop_lex_in_idioms(&self, decided: Vec<Decided>, runs: &Runs) -> Vec<Decided> {
        // Each listed place or faction, and whether it is a faction of two
        // or more characters (a one-character state is always written
        // inside a word: 宋朝, 金兵), which a word across its edge undoes.
        let (names, slip_checked): (Vec<String>, Vec<bool>) = decided
            .iter()
            .filter(|d| {
                matches!(d.kind, EntityType::Place | EntityType::Faction)
                    && d.evidence.contains("lex")
            })
            .map(|d| {
                let faction = d.kind == EntityType::Faction && d.name.chars().count() >= 2;
                (d.name.clone(), faction)
            })
            .unzip();
        if names.is_empty() {
            return decided;
        }
        let persons: HashSet<&str> = decided
            .iter()
            .filter(|d| d.kind == EntityType::Person)
            .map(|d| d.name.as_str())
            .collect();
        let ac = runs.matcher(
            names.iter().map(String::as_str),
            aho_corasick::MatchKind::LeftmostLongest,
        );
        // Per name: (occurrences, occurrences inside a set phrase).
        let seen = runs
            .map_matchable(&ac, |part| {
                let mut seen = vec![(0u32, 0u32); names.len()];
                for run in part {
                    for m in ac.ac.find_iter(run.text) {
                        let cell = &mut seen[m.pattern().as_usize()];
                        cell.0 += 1;
                        let faction = slip_checked[m.pattern().as_usize()];
                        cell.1 += u32::from(
                            self.inside_set_phrase(run.text, m.start(), m.end())
                                || (faction
                                    && self.in_other_word(run.text, m.start(), m.end(), &persons)),
                        );
                    }
                }
                seen
            })
            .into_iter()
            .fold(vec![(0, 0); names.len()], |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    x.0 += y.0;
                    x.1 += y.1;
                }
                a
            });
        let idioms: HashSet<&str> = names
            .iter()
            .zip(&seen)
            .filter(|(_, &(n, inside))| n > 0 && inside == n)
            .map(|(w, _)| w.as_str())
            .collect();
        decided
            .into_iter()
            .filter(|d| !(d.evidence.contains("lex") && idioms.contains(d.name.as_str())))
            .collect()
    }

    /// Drops places made of a direction and a word the book also says on
    /// its own at least as often and after another direction (西厢房 beside
    /// 厢房 and 东厢房; 东角门 beside 角门): a position in a house or a
    /// camp, not a name. A direction + a word never said otherwise stays
    /// (南薰宫, 东柳木寨), as does a listed place.
    pub(super) fn drop_direction_positions(
        &self,
        decided: Vec<Decided>,
        runs: &Runs,
    ) -> Vec<Decided> {
        // (index in `decided`, the word after the direction)
        let cands: Vec<(usize, String)> = decided
            .iter()
            .enumerate()
            .filter(|(_, d)| d.kind == EntityType::Place && !d.evidence.contains("lex"))
            .filter_map(|(i, d)| {
                let mut chars = d.name.chars();
                let first = chars.next()?;
                let rest: String = chars.collect();
                (self.chars.direction.contains(&first) && rest.chars().count() >= 2)
                    .then_some((i, rest))
            })
            .collect();
        if cands.is_empty() {
            return decided;
        }
        let mut words: Vec<&str> = cands.iter().map(|(_, w)| w.as_str()).collect();
        words.sort_unstable();
        words.dedup();
        let ac = runs.matcher(
            words.iter().copied(),
            aho_corasick::MatchKind::LeftmostLongest,
        );
        // Per word: (said without a direction before it, after each direction).
        let mut alone = vec![0u32; words.len()];
        let mut after: Vec<BTreeMap<char, u32>> = vec![BTreeMap::new(); words.len()];
        for m in runs.find_all(&ac) {
            let k = m.pattern as usize;
            let text = runs.at(m.run as usize).text;
            match text[..m.start as usize].chars().next_back() {
                Some(c) if self.chars.direction.contains(&c) => {
                    *after[k].entry(c).or_default() += 1;
                }
                _ => alone[k] += 1,
            }
        }
        let positions: HashSet<usize> = cands
            .iter()
            .filter(|(i, w)| {
                let k = words.binary_search(&w.as_str()).expect("a listed word");
                let dir = decided[*i].name.chars().next().expect("a direction");
                let own = after[k].get(&dir).copied().unwrap_or(0);
                let other = after[k].values().sum::<u32>() - own;
                other > 0 && alone[k] >= own
            })
            .map(|(i, _)| *i)
            .collect();
        decided
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !positions.contains(i))
            .map(|(_, d)| d)
            .collect()
    }

    /// Whether a dictionary word that names no person or place (one jieba
    /// keeps whole when it cuts it alone: 日南 it splits, so it is no
    /// evidence), or one of
    /// the book's `persons`, overlaps the bytes `start..end` of `text` and
    /// is not the name itself or part of it: it crosses an edge (然后|金公
    /// across 后金, 秦明|教 across 明教) or holds the name and more (大理石
    /// over 大理). A segmentation slip, not the name.
    pub(super) fn in_other_word(
        &self,
        text: &str,
        start: usize,
        end: usize,
        persons: &HashSet<&str>,
    ) -> bool {
        const WORD_MAX: usize = 4;
        // 日本人, 日本鬼子: the state's people, or its soldiers in common
        // speech, written after its name; a word from inside the name
        // across its right edge (本人) is then no slip, one across its
        // left edge still is (然后|金兵).
        let after = &text[end..];
        let people_after = after
            .chars()
            .next()
            .is_some_and(|c| self.chars.polity_after.contains(&c))
            || self
                .lex
                .slang_armies
                .iter()
                .any(|w| after.starts_with(w.as_str()));
        let before: Vec<char> = text[..start].chars().rev().take(WORD_MAX - 1).collect();
        let name: Vec<char> = text[start..end].chars().collect();
        let window: Vec<char> = before
            .iter()
            .rev()
            .chain(&name)
            .chain(
                text[end..]
                    .chars()
                    .take(WORD_MAX - 1)
                    .collect::<Vec<_>>()
                    .iter(),
            )
            .copied()
            .collect();
        let (s, e) = (before.len(), before.len() + name.len());
        (0..window.len()).any(|a| {
            (a + 2..=(a + WORD_MAX).min(window.len())).any(|b| {
                let overlaps = a < e && b > s;
                let within = a >= s && b <= e;
                if !overlaps || within || (people_after && a >= s) {
                    return false;
                }
                let word: String = window[a..b].iter().collect();
                persons.contains(word.as_str())
                    || (matches!(self.tag_of(&word), Some(Tag::Other | Tag::Proper))
                        && !self.vocab.tag(&word).is_empty())
            })
        })
    }

    /// Whether the bytes `start..end` of `text` lie inside a four-character
    /// dictionary word that is no name, however rare (东躲|西藏 in 东躲西藏;
    /// 进退|维谷, which jieba counts 15 times): a set phrase, not a name.
    pub(super) fn inside_set_phrase(&self, text: &str, start: usize, end: usize) -> bool {
        let len = text[start..end].chars().count();
        if len >= 4 {
            return false;
        }
        let before: Vec<usize> = text[..start]
            .char_indices()
            .rev()
            .take(4 - len)
            .map(|(i, _)| i)
            .collect();
        // Windows of four characters that hold the whole name.
        (0..=before.len()).any(|k| {
            let from = if k == 0 { start } else { before[k - 1] };
            let Some(to) = text[from..]
                .char_indices()
                .nth(4)
                .map(|(i, _)| from + i)
                .or_else(|| (text[from..].chars().count() == 4).then_some(text.len()))
            else {
                return false;
            };
            to >= end && self.tag_of(&text[from..to]) == Some(Tag::Other)
        })
    }
}

/// How often each of `names` occurs in the book (leftmost-longest).
pub(super) fn count_in(names: &[String], runs: &Runs) -> Vec<u32> {
    count_in_where(names, runs, |_, _, _| true)
}

/// `count_in` by name, each name matched once however often it is given
/// (a matcher reports a repeated pattern as its first copy only, so a
/// second copy would count nothing).
fn count_each(names: impl IntoIterator<Item = String>, runs: &Runs) -> FxMap<String, u32> {
    let names: Vec<String> = names
        .into_iter()
        .collect::<BTreeSet<String>>()
        .into_iter()
        .collect();
    let counts = count_in(&names, runs);
    names.into_iter().zip(counts).collect()
}

/// How often each of `names` occurs (leftmost-longest) where `keep` holds
/// of the run's text and the occurrence's byte offset in it. Counted per
/// slice of the book in parallel, then added up.
/// Characters on each side of a listed place that jieba cuts with it
/// (`drop_split_places`).
const SPLIT_WINDOW: usize = 4;

/// A jieba frequency below which a dictionary word that swallows a listed
/// place is not trusted (`drop_split_places`).
const RARE_WORD: usize = 10;

/// For each of `names`, whether `reads` holds at one of its mentions
/// (leftmost-longest, in book order; the rest of a name's mentions are not
/// asked once one reads): `reads` gets the run, the mention's character
/// range in it and the hit.
fn any_mention_reads<'t>(
    names: &[String],
    runs: &Runs<'t>,
    reads: impl Fn(&Run<'t>, usize, usize, &corpus::RunHit) -> bool,
) -> Vec<bool> {
    let matcher = runs.matcher(names, aho_corasick::MatchKind::LeftmostLongest);
    let mut read = vec![false; names.len()];
    for hit in runs.find_all(&matcher) {
        let h = hit.pattern as usize;
        if read[h] {
            continue;
        }
        let run = runs.at(hit.run as usize);
        let i = run
            .off
            .binary_search(&hit.start)
            .expect("a hit starts at a character");
        let j = i + names[h].chars().count();
        read[h] = reads(&run, i, j, &hit);
    }
    read
}

pub(super) fn count_in_where<S: AsRef<str> + Sync>(
    names: &[S],
    runs: &Runs,
    keep: impl Fn(&str, usize, usize) -> bool + Sync,
) -> Vec<u32> {
    let matcher = runs.matcher(names, aho_corasick::MatchKind::LeftmostLongest);
    runs.map_matchable(&matcher, |part| {
        let mut counts = vec![0u32; names.len()];
        for run in part {
            for m in matcher.ac.find_iter(run.text) {
                counts[m.pattern().as_usize()] += u32::from(keep(run.text, m.start(), m.end()));
            }
        }
        counts
    })
    .into_iter()
    .fold(vec![0; names.len()], |mut a, b| {
        for (x, y) in a.iter_mut().zip(b) {
            *x += y;
        }
        a
    })
}

/// The strings of `strings` that occur in the book (runs scanned in parallel).
fn occurring(strings: BTreeSet<String>, runs: &Runs) -> BTreeSet<String> {
    if strings.is_empty() {
        return strings;
    }
    let strings: Vec<String> = strings.into_iter().collect();
    let matcher = runs.matcher(&strings, aho_corasick::MatchKind::Standard);
    let found: Vec<bool> = runs
        .map_matchable(&matcher, |part| {
            let mut found = vec![false; strings.len()];
            for run in part {
                for m in matcher.ac.find_overlapping_iter(run.text) {
                    found[m.pattern().as_usize()] = true;
                }
            }
            found
        })
        .into_iter()
        .fold(vec![false; strings.len()], |a, b| {
            a.iter().zip(&b).map(|(x, y)| *x || *y).collect()
        });
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
    let ac = crate::entity::name_matcher(
        decided.iter().map(|d| d.name.as_str()),
        aho_corasick::MatchKind::Standard,
    );
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

/// A person and the character after it is said at most this often.
const NAME_AND_NEXT_MAX: u32 = 2;

/// Whether person `b` is person `a` and the character after it (韩青住
/// in 命韩青住在帐中), said at most `NAME_AND_NEXT_MAX` times and less
/// often than `a`. The caller also wants `a` said alone at least as often
/// as `b` (耶律北, a slip for 耶律北辰 said once alone, does not take
/// 耶律北辰's place).
fn name_and_next(a: &Decided, b: &Decided) -> bool {
    a.kind == EntityType::Person
        && b.kind == EntityType::Person
        && b.name.starts_with(a.name.as_str())
        && b.name.chars().count() == a.name.chars().count() + 1
        && b.count <= NAME_AND_NEXT_MAX
        && b.count < a.count
}

impl Recognizer {
    /// A string that ends counting people, a numeral and a counter (王马二人,
    /// 刘二位, 叁位), or a family's siblings (丁家兄弟, 耿氏弟兄): it names
    /// several people, never one.
    pub(super) fn counts_people(&self, w: &str) -> bool {
        let mut tail = w.chars().rev();
        match (tail.next(), tail.next(), tail.next()) {
            (Some(counter), Some(numeral), _)
                if self.chars.person_counter.contains(&counter)
                    && self.numerals.contains(&numeral) =>
            {
                true
            }
            (Some(b), Some(a), Some(family)) => {
                a != b
                    && self.chars.sibling.contains(&a)
                    && self.chars.sibling.contains(&b)
                    && (family == '家' || self.chars.clan.contains(&family))
            }
            _ => false,
        }
    }

    /// The candidates that name several people: counts of people
    /// (`counts_people`), and strings said before one at least a third of
    /// the time, a coordination (钟马 of 钟马二人: 钟岳 and 马青).
    pub(super) fn group_names<'a>(&self, m: &Measured<'a>) -> HashSet<&'a str> {
        let mut counted: BTreeMap<&str, u32> = BTreeMap::new();
        for (&w, st) in m.words.iter().zip(&m.stats) {
            if !st.aux && self.counts_people(w) {
                let tail: usize = w.chars().rev().take(2).map(char::len_utf8).sum();
                *counted.entry(&w[..w.len() - tail]).or_default() += st.count;
            }
        }
        m.words
            .iter()
            .zip(&m.stats)
            .filter(|(&w, st)| {
                self.counts_people(w) || counted.get(w).is_some_and(|&c| 3 * c >= st.count)
            })
            .map(|(&w, _)| w)
            .collect()
    }
}

/// Two slices' counts of strings merged (`absorb` adds one string's).
fn merge_seen<T: Default>(
    mut a: BTreeMap<String, T>,
    b: BTreeMap<String, T>,
    absorb: fn(&mut T, T),
) -> BTreeMap<String, T> {
    for (w, s) in b {
        absorb(a.entry(w).or_default(), s);
    }
    a
}

/// The phase-1 decisions with `added` among them, in name order.
fn with_added(mut first: Vec<Decided>, added: Vec<Decided>) -> Vec<Decided> {
    if !added.is_empty() {
        first.extend(added);
        first.sort_by(|a, b| a.name.cmp(&b.name).then(a.kind.cmp(&b.kind)));
    }
    first
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::corpus::RunStore;

    /// (rule, persons as (name, count, has a surname), expected (name,
    /// aliases) rows). A count includes the mentions inside longer names.
    type GivenCase = (
        &'static str,
        &'static [(&'static str, u32, bool)],
        &'static [(&'static str, &'static [&'static str])],
    );

    const GIVEN_NAMES: &[GivenCase] = &[
        (
            "a listed surname + a name with none of its own",
            &[("鲁智深", 10, true), ("智深", 30, false)],
            &[("鲁智深", &["智深"])],
        ),
        (
            "a given name that starts with a surname, used with its full name",
            &[("苏云锋", 60, true), ("云锋", 96, true)],
            &[("苏云锋", &["云锋"])],
        ),
        (
            "a surname missing from our list, its full name a third of the mentions",
            &[("岚孟川", 79, false), ("孟川", 155, true)],
            &[("岚孟川", &["孟川"])],
        ),
        (
            "a name said rarely with one more character before it is context",
            &[("付林冲", 5, true), ("林冲", 500, true)],
            &[("林冲", &[])],
        ),
        (
            "two characters before a name are no surname our list lacks",
            &[("翊川翊岚", 6, false), ("翊岚", 60, false)],
            &[("翊岚", &[])],
        ),
        (
            "a given name two full names share binds to neither",
            &[
                ("苏云锋", 30, true),
                ("王云锋", 25, true),
                ("云锋", 96, true),
            ],
            &[("苏云锋", &[]), ("王云锋", &[]), ("云锋", &[])],
        ),
        (
            "a person and the next character, said once, the person alone as often",
            &[("韩千山住", 1, true), ("韩千山", 2, true)],
            &[("韩千山", &[])],
        ),
        (
            "a name said twice beside a slip for it said once alone stays",
            &[("耶律北辰", 2, true), ("耶律北", 3, true)],
            &[("耶律北", &[]), ("耶律北辰", &[])],
        ),
        (
            "a person and the next character said three times is left to the other rules",
            &[("韩千山住", 3, true), ("韩千山", 7, true)],
            &[("韩千山", &[]), ("韩千山住", &[])],
        ),
    ];

    #[test]
    fn a_place_inside_a_set_phrase_by_table() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        // (text, the place, inside a set phrase)
        let table = [
            ("打得众人东躲西藏。", "西藏", true),
            ("东躲西藏", "西藏", true),
            ("东躲西藏", "东躲", true),
            ("他们前往西藏，", "西藏", false),
            // a name the tagger reads at the end of an idiom (进退|维谷)
            ("只得进退维谷，", "维谷", true),
            ("命柯北辰道", "柯北辰", false),
            // a dictionary name is no set phrase (诸葛|孔明)
            ("诸葛孔明道", "孔明", false),
            // a four-character word tagged as a place is no set phrase
            ("天南地北", "地北", false),
        ];
        for (text, place, want) in table {
            let start = text.find(place).unwrap();
            let got = r.inside_set_phrase(text, start, start + place.len());
            assert_eq!(got, want, "{text} {place}");
        }
    }

    #[test]
    fn a_familys_village_by_table() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        let table = [
            ("柯家堡", true),
            ("苏家村", true),
            ("欧阳家寨", true),
            // 法 is a surname of weight 1 (a common character)
            ("法家村", false),
            ("这家庄", false),
            ("柯家店", false),
            ("柯家庄园", false),
            ("柯家", false),
        ];
        for (w, want) in table {
            assert_eq!(r.family_village(w), want, "{w}");
        }
    }

    #[test]
    fn a_familys_village_said_once_is_a_place() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        let text = "次日骑了驴儿，往苏家村去讲亲。柯北辰在柯家庄稼地里。";
        let store = RunStore::new(&[text]);
        let runs = store.runs();
        let m = r.measure(&runs, false, &mut Phases::default());
        let added = r.add_family_villages(Vec::new(), &m);
        let names: Vec<(&str, EntityType)> =
            added.iter().map(|d| (d.name.as_str(), d.kind)).collect();
        assert_eq!(names, [("苏家村", EntityType::Place)]);
    }

    #[test]
    fn an_addressed_settlements_stem_by_table() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        let table = [
            ("柯溪", true),
            ("东溪", true),
            ("石门", true),
            // One character is too little to read.
            ("潭", false),
            // Ends with a position: 州城南|下寨, camped south of the city.
            ("南下", false),
            // Opens with a function character (州之村), holds one (柯之).
            ("之柯", false),
            ("柯之", false),
            // Opens with a movement cue: 往柯庄 is a way, not a name.
            ("往柯", false),
        ];
        for (stem, want) in table {
            assert_eq!(r.addressed_stem(stem), want, "{stem}");
        }
    }

    #[test]
    fn a_settlement_written_after_its_city_is_a_place() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        // 柯溪村 follows 武进县, itself after 常州府: an address (its second
        // mention, 往柯溪村去, is none, but counts). 汤知寨 is a surname +
        // 知寨 (a title); 城南下寨 is camping south of the city.
        let text = "韩千山乃常州府武进县柯溪村人氏。苏青禾往柯溪村去。\
                    有个延安府汤知寨儿子。大军到了青州城南下寨。";
        let store = RunStore::new(&[text]);
        let runs = store.runs();
        let m = r.measure(&runs, false, &mut Phases::default());
        let place =
            |name: &str| decided_owned(name.to_string(), EntityType::Place, 0.9, &["lex"], 1);
        let first = vec![
            place("常州府"),
            place("武进县"),
            place("延安府"),
            place("青州"),
        ];
        let all = r.add_addressed_places(first, &runs, &m);
        let added: Vec<(&str, u32)> = all
            .iter()
            .filter(|d| d.evidence.contains("within"))
            .map(|d| (d.name.as_str(), d.count))
            .collect();
        // Both mentions counted, one of them in the address.
        assert_eq!(added, [("柯溪村", 2)]);
        // After 延安府 alone comes only 汤知寨, a title form: nothing is added.
        let alone = r.add_addressed_places(vec![place("延安府")], &runs, &m);
        assert_eq!(alone.len(), 1);
    }

    #[test]
    fn a_whole_item_of_a_list_of_persons_is_a_person() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        // 石万鹏 is a word of jieba's dictionary, tagged a person's name;
        // 石三鸟 too, but no list holds it whole (一石三鸟 is a saying).
        // 苏君其 holds 其; 苏虎等 ends with 等, a verb too. 何千里 ends the
        // first item, after the command cue 命 (何 is a function character
        // and a strong surname). 谢道衡 starts with two verbs' characters
        // (谢 thank, 道 say), which a whole item of the list does not end.
        let text = "拘到韩千山、苏君其、石敢当一干人。韩千山、石万鹏、石敢当都到了。\
                    韩千山、石敢当、苏虎等，都在堂上。一石三鸟、韩千山、石敢当。\
                    次日再命何千里、韩千山、石敢当速去救应。韩千山、谢道衡、石敢当都来了。";
        let store = RunStore::new(&[text]);
        let runs = store.runs();
        let m = r.measure(&runs, false, &mut Phases::default());
        let known = vec![said_person("石敢当", 4), said_person("韩千山", 4)];
        let all = r.add_coordinated(known, &runs, &m);
        let added: Vec<&str> = all
            .iter()
            .filter(|d| d.evidence.contains("coord"))
            .map(|d| d.name.as_str())
            .collect();
        assert_eq!(added, ["何千里", "石万鹏", "苏君其", "谢道衡"]);
    }

    /// A person the rules decided from speech cues, said `count` times.
    fn said_person(name: &str, count: u32) -> Decided {
        decided_owned(name.to_string(), EntityType::Person, 0.9, &["say"], count)
    }

    #[test]
    fn an_adepts_sobriquet_and_religious_title_said_often_is_a_person() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        // 寒光 is an ordinary word (cold gleam); 修行 a verb and a monk who
        // begs (化缘) said after 那: roles, not names; 青霞 is a person.
        let adept = |name: &str, before: &str| {
            format!(
                "{name}道：“贫道来也。”众人见{before}{name}大怒，只见{name}骑鹿而来。\
                 {name}笑曰：“好。”童儿报与{before}{name}知道。{name}问曰：“何人？”\
                 却说{before}{name}回洞。"
            )
        };
        let text = [
            adept("寒光圣母", ""),
            adept("修行道人", ""),
            adept("化缘和尚", "那"),
            adept("青霞真人", ""),
            "青霞道：“请了。”".to_string(),
        ]
        .concat();
        let text = text.as_str();
        let store = RunStore::new(&[text]);
        let runs = store.runs();
        let m = r.measure(&runs, false, &mut Phases::default());
        for role in ["修行道人", "化缘和尚"] {
            assert!(!r.titled_sobriquet(role, m.stat(role).unwrap()), "{role}");
        }
        let first = vec![said_person("青霞", 1)];
        let added = r.add_titled_sobriquets(first, &m);
        let got: Vec<(&str, EntityType, Vec<&str>)> = added
            .iter()
            .map(|d| {
                let aliases = d.aliases.iter().map(String::as_str).collect();
                (d.name.as_str(), d.kind, aliases)
            })
            .collect();
        assert_eq!(
            got,
            [
                ("寒光圣母", EntityType::Person, vec![]),
                ("青霞", EntityType::Person, vec!["青霞真人"]),
            ]
        );
    }

    #[test]
    fn a_woman_named_by_her_family_said_with_cues_is_a_person() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        // 于 is a surname and a function character, and jieba makes a word
        // of 氏 alone: the rules refuse 于氏 however often she speaks. 柯氏
        // is said only after a demonstrative (那柯氏: a way of pointing),
        // 人氏 ("a native of") holds no surname.
        let text = "于氏道：“老爷回来了。”丫环见了于氏，忙叫夫人。于氏夫人问道：“女儿呢？”\
                    众人扶住于氏，于氏哭道：“我的儿！”家中全仗于氏调度。\
                    那柯氏道：“好。”那柯氏笑道：“来了。”那柯氏问道：“谁？”\
                    他是本地人氏，那人氏道：“是。”\
                    韩氏道：“来。”忽见韩氏兄弟，韩氏笑道：“好。”又见韩氏弟兄。\
                    韩氏问道：“谁？”韩氏兄弟同来，那韩氏兄弟。";
        let store = RunStore::new(&[text]);
        let runs = store.runs();
        let m = r.measure(&runs, false, &mut Phases::default());
        let yu = m.stat("于氏").expect("于氏 is a candidate");
        assert!(
            r.judge("于氏", yu, &m).is_none(),
            "the rules alone refuse 于氏"
        );
        // 韩氏 speaks, but the book names the 韩 family's sons after her
        // name more often: a family, left out by the pass.
        for (w, want) in [
            ("于氏", true),
            ("柯氏", false),
            ("人氏", false),
            ("韩氏", true),
        ] {
            let got = m.stat(w).is_some_and(|st| r.clan_name(w, st));
            assert_eq!(got, want, "{w}");
        }
        let added = r.add_shaped_names(
            vec![said_person("石敢当", 3)],
            &m,
            Recognizer::clan_name,
            &["sur", "clan"],
        );
        let got: Vec<(&str, EntityType)> =
            added.iter().map(|d| (d.name.as_str(), d.kind)).collect();
        assert_eq!(
            got,
            [("于氏", EntityType::Person), ("石敢当", EntityType::Person)]
        );
        assert!(added[0].evidence.contains("clan"));
    }

    #[test]
    fn a_clan_name_by_table() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        let stat = |count: u32, title: u32, ld: u32, lp: u32, dem: u32| Stat {
            count,
            title,
            left_distinct: ld,
            left_punct: lp,
            after_demonstrative: dem,
            ..Stat::default()
        };
        let table = [
            // After three different characters (one of them a run edge).
            ("于氏", stat(9, 4, 2, 3, 0), true),
            // A chapter: four mentions, three at the start of a clause.
            ("于氏", stat(4, 4, 1, 3, 0), true),
            // Glued to the same character: neither.
            ("于氏", stat(4, 4, 1, 1, 0), false),
            // Pointed at (那于氏) too often.
            ("于氏", stat(9, 4, 2, 3, 2), false),
            // Too few cues.
            ("于氏", stat(9, 2, 2, 3, 0), false),
            // No surname before 氏.
            ("人氏", stat(9, 4, 2, 3, 0), false),
        ];
        for (w, st, want) in table {
            assert_eq!(r.clan_name(w, &st), want, "{w} {st:?}");
        }
    }

    #[test]
    fn a_listed_polity_the_book_only_goes_to_is_a_place() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        // 大宛 is gone to three times in four; 吐蕃 as often, but the book
        // also reads it as a polity (poly); 高丽国 is named as a state.
        let text = "石敢当前往大宛。韩千山到了大宛，大宛风沙大。苏青禾往大宛去。\
                    石敢当前往吐蕃。韩千山到了吐蕃。苏青禾往吐蕃去。\
                    石敢当前往高丽国。韩千山到了高丽国。苏青禾往高丽国去。";
        let store = RunStore::new(&[text]);
        let runs = store.runs();
        let m = r.measure(&runs, false, &mut Phases::default());
        let faction = |name: &str, evidence: &[&'static str]| {
            decided_owned(name.to_string(), EntityType::Faction, 0.9, evidence, 3)
        };
        let all = r.places_by_context(
            vec![
                faction("大宛", &["lex"]),
                faction("吐蕃", &["lex", "poly"]),
                faction("高丽国", &["lex"]),
            ],
            &m,
        );
        let kinds: Vec<(&str, EntityType)> =
            all.iter().map(|d| (d.name.as_str(), d.kind)).collect();
        assert_eq!(
            kinds,
            [
                ("大宛", EntityType::Place),
                ("吐蕃", EntityType::Faction),
                ("高丽国", EntityType::Faction)
            ]
        );
        assert!(all[0].evidence.contains("mov"));
        // A place of that name already: the faction stays (no second row).
        let place = decided_owned("大宛".to_string(), EntityType::Place, 0.5, &["mov"], 3);
        let both = r.places_by_context(vec![place, faction("大宛", &["lex"])], &m);
        let kinds: Vec<EntityType> = both.iter().map(|d| d.kind).collect();
        assert_eq!(kinds, [EntityType::Place, EntityType::Faction]);
    }

    #[test]
    fn a_place_gone_to_in_a_journey_frame_stands() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        // 青石 is gone to twice in the frame 往X去 / 到X来; 白沙 is reached
        // twice but never so; 柯北辰 is a person.
        let text = "我同你往青石去。明日到青石来。石敢当到了白沙，又到白沙。\
                    往柯北辰去。往柯北辰去。";
        let store = RunStore::new(&[text]);
        let runs = store.runs();
        let place =
            |name: &str| decided_owned(name.to_string(), EntityType::Place, 0.5, &["mov"], 2);
        let refused = [place("青石"), place("白沙"), said_person("柯北辰", 2)];
        let kept = r.add_framed_places(vec![said_person("石敢当", 1)], &refused, &runs);
        let names: Vec<&str> = kept.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["石敢当", "青石"]);
    }

    #[test]
    fn a_thing_held_or_handled_by_table() {
        // (count, said with a speech cue, after an object cue, a thing)
        let table = [
            (30, 0, 4, true),
            (11, 0, 2, true),
            (16, 2, 3, true),
            // Once is chance (取出一封书, 韩千山).
            (7, 0, 1, false),
            // Under a tenth of the mentions.
            (40, 0, 3, false),
            // A speaker needs a sixth (a man 手提 once in a while).
            (30, 5, 4, false),
            (24, 5, 4, true),
        ];
        for (count, say, handled, want) in table {
            assert_eq!(
                handled_object(count, say, handled),
                want,
                "{count} {say} {handled}"
            );
        }
    }

    #[test]
    fn a_treasure_raised_and_held_is_no_person() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        // 柯 is a surname; 柯青镜 flies and strikes like a man, but the
        // book raises it (祭起) and holds it (手执, 取出): a thing. 石敢当
        // speaks, and is taken out of nothing.
        let text = "石敢当道：“看宝！”祭起柯青镜，柯青镜飞来，正中韩千山。\
                    石敢当手执柯青镜，柯青镜放出光来。韩千山大怒，柯青镜又到。\
                    石敢当笑道：“好宝贝。”又取出柯青镜，柯青镜落下。\
                    石敢当问道：“你服么？”柯青镜收了回去。";
        let store = RunStore::new(&[text]);
        let runs = store.runs();
        let m = r.measure(&runs, false, &mut Phases::default());
        let decided = vec![said_person("柯青镜", 8), said_person("石敢当", 4)];
        let kept = r.drop_handled_objects(decided, &runs, &m);
        let names: Vec<&str> = kept.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["石敢当"]);
    }

    #[test]
    fn a_group_noun_by_table() {
        // (count, grouped, a kind of people)
        let table = [
            (20, 2, true),
            (20, 3, true),
            // Once is chance (些 also ends 好些, 多些: 好些|韩千山).
            (5, 1, false),
            // Under a tenth of the mentions.
            (40, 3, false),
            (30, 3, true),
        ];
        for (count, grouped, want) in table {
            assert_eq!(group_noun(count, grouped), want, "{count} {grouped}");
        }
    }

    #[test]
    fn a_kind_of_people_said_as_many_is_no_person() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        // 柯仆 (柯 a surname) speaks and acts like a man, but the book says
        // 众柯仆, 那些柯仆 and 柯仆们: servants of a kind. 石敢当 is one man,
        // though he stands after 众人 once.
        let text = "柯仆道：“来了。”众柯仆一齐上前。柯仆大怒，那些柯仆围住石敢当。\
                    石敢当笑道：“好。”柯仆们四散。众人石敢当看了，柯仆问道：“谁？”\
                    各柯仆回去。石敢当问道：“你服么？”";
        let store = RunStore::new(&[text]);
        let runs = store.runs();
        let decided = vec![said_person("柯仆", 8), said_person("石敢当", 4)];
        let kept = r.drop_group_nouns(decided, &runs);
        let names: Vec<&str> = kept.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["石敢当"]);
    }

    #[test]
    fn a_surname_pair_by_table() {
        // (count, paired, two people)
        let table = [
            (10, 8, true),
            (30, 6, true),
            // Once is chance: the second of two names (石敢当、韩柯二人).
            (3, 1, false),
            // Under a fifth of the mentions (a name that is the second of
            // two names now and then).
            (40, 7, false),
        ];
        for (count, paired, want) in table {
            assert_eq!(surname_pair(count, paired), want, "{count} {paired}");
        }
    }

    #[test]
    fn two_surnames_counted_as_two_people_are_no_person() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        // 韩柯 names 韩千山 and 柯北辰 (韩柯二人). 柯平 is one man, the second
        // of two names now and then (石敢当柯平二人): 平 begins no other
        // name of the book.
        let text = "韩千山道：“走。”柯北辰道：“来。”韩柯二人同行。韩柯两位到了庄上。\
                    韩柯二人坐下。韩柯看了。韩千山笑道：“好。”柯北辰问道：“谁？”\
                    韩柯二人出去。柯平道：“是。”石敢当柯平二人去了。韩千山柯平二人回来。\
                    柯平笑道：“好。”柯平看了。柯平问道：“谁？”柯平去了。";
        let store = RunStore::new(&[text]);
        let runs = store.runs();
        let decided = vec![
            said_person("韩柯", 6),
            said_person("韩千山", 4),
            said_person("柯北辰", 4),
            said_person("柯平", 7),
        ];
        let kept = r.drop_surname_pairs(decided, &runs);
        let names: Vec<&str> = kept.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["韩千山", "柯北辰", "柯平"]);
    }

    #[test]
    fn a_part_of_a_house_by_table() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        for (w, want) in [
            // One character + a part or kind of house.
            ("书房", true),
            ("花厅", true),
            ("后院", true),
            ("酒楼", true),
            // A family's name (柯 a surname), a longer stem, a gate or a
            // palace (午门 and 东宫 are named places).
            ("柯楼", false),
            ("听雨轩", false),
            ("北门", false),
            ("东宫", false),
            // The gate of a building or a town.
            ("府门", true),
            ("城门", true),
            ("院门", true),
            ("午门", false),
        ] {
            assert_eq!(r.house_part(w), want, "{w}");
        }
        let kept = r.drop_house_parts(vec![
            decided_owned("花厅".into(), EntityType::Place, 0.9, &["mov"], 9),
            decided_owned("听雨轩".into(), EntityType::Place, 0.9, &["mov"], 9),
        ]);
        let names: Vec<&str> = kept.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["听雨轩"]);
    }

    #[test]
    fn a_listed_place_that_is_also_a_phrase_stays_only_where_it_reads_as_a_place() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        let place =
            |name: &str| decided_owned(name.to_string(), EntityType::Place, 0.9, &["lex"], 2);
        let kept = |text: &str, name: &str| {
            let store = RunStore::new(&[text]);
            let runs = store.runs();
            !r.drop_homograph_places(vec![place(name)], &runs).is_empty()
        };
        // 上京 "go up to the capital", 河内 "in the river": phrases.
        assert!(!kept("韩千山要上京赶考，柯北辰也上京投亲。", "上京"));
        assert!(!kept("石敢当跳在河内，陷在河内。", "河内"));
        // A journey there, a title or a town after it: the place.
        assert!(kept("大军杀奔上京，要上京赶考。", "上京"));
        assert!(kept("河内太守韩千山到了。", "河内"));
        assert!(kept("石敢当到了上京城下。", "上京"));
        // 在 is no journey; a place not on the list is not asked.
        assert!(!kept("石敢当在河内。", "河内"));
        assert!(kept("韩千山要上燕京赶考。", "燕京"));
        // Verse's "everlasting spring", and the modern city.
        assert!(!kept("青松翠柏庆长春。", "长春"));
        assert!(kept("部队攻打长春，长春市内大乱。", "长春"));
    }

    #[test]
    fn a_listed_place_that_jieba_always_cuts_out_of_its_neighbours_is_dropped() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        let place =
            |name: &str| decided_owned(name.to_string(), EntityType::Place, 0.9, &["lex"], 1);
        let kept = |text: &str, name: &str| {
            let store = RunStore::new(&[text]);
            let runs = store.runs();
            !r.drop_split_places(vec![place(name)], &runs).is_empty()
        };
        // 东西|藏, 太行山|西麓, 运河|南下, 太湖石, 福如东海: no place there.
        assert!(!kept("韩千山问有什么东西藏在那里。", "西藏"));
        assert!(!kept("苍岩峪在太行山西麓。", "山西"));
        assert!(!kept("柯北辰沿运河南下。", "河南"));
        assert!(!kept("迎面有块太湖石。", "太湖"));
        assert!(!kept("福如东海寿比南山。", "东海"));
        // Read whole, or as the head of a place word or a demonym.
        assert!(kept("韩千山过长江，渡淮河。", "长江"));
        assert!(kept("如今天下山东、山西都乱了。", "山东"));
        assert!(kept("石敢当乃苏州府人氏。", "苏州"));
        assert!(kept("柯北辰却是济南人。", "济南"));
        assert!(!kept("这和尚原来也是一路。", "和尚原"));
        // jieba lists 代州雁 (frequency 5): too rare to swallow 代州.
        assert!(kept("韩千山走到代州雁门县。", "代州"));
        // One mention read whole is enough.
        assert!(kept("东西藏好了，韩千山便往西藏去。", "西藏"));
        // A place with evidence beyond the list is not asked.
        let mut moved = place("西藏");
        moved.evidence.insert("mov");
        let store = RunStore::new(&["东西藏好了。"]);
        assert_eq!(r.drop_split_places(vec![moved], &store.runs()).len(), 1);
    }

    #[test]
    fn a_two_character_stem_and_a_faction_suffix_followed_by_members_is_a_sect() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        let sects = |text: &str| -> Vec<String> {
            let store = RunStore::new(&[text]);
            r.add_named_sects(Vec::new(), &store.runs())
                .into_iter()
                .map(|d| d.name)
                .collect()
        };
        // A weak suffix (门), a stem that is an ordinary word (云海), 的
        // between the name and its members.
        assert_eq!(
            sects("韩千山乃青崖门弟子。柯北辰是青崖门的掌门。"),
            ["青崖门"]
        );
        assert_eq!(sects("云海宗弟子到了，云海宗门下还有三人。"), ["云海宗"]);
        // Said once with members; a numeral, a pronoun or group word, a
        // stem glued to the word before (出身名门).
        assert!(sects("韩千山乃青崖门弟子。").is_empty());
        assert!(sects("三个同门弟子来了，三个同门弟子走了。").is_empty());
        assert!(sects("我们本派弟子，我们本派弟子。").is_empty());
        assert!(sects("他出身名门弟子，出身名门弟子。").is_empty());
    }

    #[test]
    fn a_society_whose_stem_lives_only_before_its_suffix_is_a_faction() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        let found = |text: &str, decided: Vec<Decided>| -> Vec<(String, EntityType)> {
            let store = RunStore::new(&[text]);
            let runs = store.runs();
            let m = r.measure(&runs, true, &mut Phases::default());
            let mut out: Vec<(String, EntityType)> = r
                .add_bound_factions(decided, &runs, &m)
                .into_iter()
                .map(|d| (d.name, d.kind))
                .collect();
            out.sort();
            out
        };
        // 赤枫 is never said without 会: the society is a faction, and a
        // person read in its stem goes.
        let text = "赤枫会的人来了。这赤枫会在城里，你们赤枫会拿三成，我和赤枫会无关。";
        let stem_person = decided_owned("赤枫".to_string(), EntityType::Person, 0.6, &["sur"], 4);
        assert_eq!(
            found(text, vec![stem_person]),
            [("赤枫会".to_string(), EntityType::Faction)]
        );
        // A stem said on its own as often (韩千山会来: 会 "will"), a name
        // shaped like a person's (韩敬宗), a tail said far more often alone
        // (知|苍岩帮), or a first character that is a verb's: none.
        let will = "韩千山会来。韩千山会走。韩千山会笑。韩千山道：好。韩千山笑道：走。";
        assert!(found(will, Vec::new()).is_empty());
        let general = "韩敬宗来了。这韩敬宗在城里，你们韩敬宗拿三成，我和韩敬宗无关。";
        assert!(found(general, Vec::new()).is_empty());
        let tail = "他知苍岩帮。我知苍岩帮，谁知苍岩帮。苍岩帮来了，苍岩帮走了，那苍岩帮，这苍岩帮，他的苍岩帮。";
        assert!(!found(tail, Vec::new()).iter().any(|(n, _)| n == "知苍岩帮"));
        // Twice is enough (a chapter names its gang twice), but not after a
        // verb of jieba that opens the stem (勾结|逆党).
        assert_eq!(
            found("众人说赤枫会的人来了。这赤枫会在城里。", Vec::new()),
            [("赤枫会".to_string(), EntityType::Faction)]
        );
        let verb = "众人说他勾结逆党。又说你勾结逆党。";
        assert!(!found(verb, Vec::new())
            .iter()
            .any(|(n, _)| n.starts_with("勾结")));
    }

    #[test]
    fn a_place_named_x_guo_that_reads_as_a_polity_is_a_faction() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        let kind = |text: &str, name: &str| {
            let store = RunStore::new(&[text]);
            let place = decided_owned(name.to_string(), EntityType::Place, 0.9, &["sfx"], 2);
            r.states_as_factions(vec![place], &store.runs())[0].kind
        };
        // A title or a polity word after it, a journey or a war before it.
        assert_eq!(kind("柯罗国王差太子来。", "柯罗国"), EntityType::Faction);
        assert_eq!(kind("再遣一使往柯罗国。", "柯罗国"), EntityType::Faction);
        assert_eq!(kind("韩千山起兵伐柯罗国。", "柯罗国"), EntityType::Faction);
        // Said with none of those, or after the weak 亡: it stays.
        assert_eq!(kind("柯罗国山水甚好。", "柯罗国"), EntityType::Place);
        assert_eq!(kind("安有不亡身丧国者也。", "身丧国"), EntityType::Place);
    }

    #[test]
    fn a_chapters_adept_named_by_sobriquet_and_title_is_a_person() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        // 青霞真人 is said twice after different characters, with no cue;
        // 出家做和尚 is a man becoming a monk (做 a verb), 一个道人 a count,
        // 住持真人 a role of the dictionary; 寒江老祖 is said once.
        let text = "却说青霞真人坐在洞中。一日青霞真人下山。石敢当要出家做和尚，\
                    又要出家做和尚。来了一个道人，又是一个道人。住持真人来了，\
                    见了住持真人。寒江老祖未到。";
        let store = RunStore::new(&[text]);
        let runs = store.runs();
        let m = r.measure(&runs, false, &mut Phases::default());
        let added = r.add_chapter_adepts(vec![said_person("石敢当", 2)], &runs, &m);
        let names: Vec<&str> = added.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["石敢当", "青霞真人"]);
        for (stem, want) in [
            ("青霞", true),
            ("家做", false),
            ("一个", false),
            ("住持", false),
        ] {
            assert_eq!(r.adept_sobriquet(stem, false), want, "{stem}");
        }
        // 渡 is a verb to jieba: 霜渡道长 twice is not enough, four times is.
        assert!(!r.adept_sobriquet("霜渡", false) && r.adept_sobriquet("霜渡", true));
        let adepts = |text: &str| -> Vec<String> {
            let store = RunStore::new(&[text]);
            let runs = store.runs();
            let m = r.measure(&runs, false, &mut Phases::default());
            r.add_chapter_adepts(Vec::new(), &runs, &m)
                .into_iter()
                .map(|d| d.name)
                .collect()
        };
        assert!(adepts("却说霜渡道长来了。一日霜渡道长下山。").is_empty());
        assert_eq!(
            adepts("却说霜渡道长来了。一日霜渡道长下山。见了霜渡道长。石敢当拜霜渡道长。"),
            ["霜渡道长"]
        );
        // Opening both clauses it is in is as good as two different
        // characters before it; the same character twice is not.
        assert_eq!(adepts("。青霞真人来了。青霞真人下山。"), ["青霞真人"]);
        assert!(adepts("拜青霞真人。拜青霞真人。").is_empty());
        // 云岫 (云 "says", no sobriquet of its own) already a person: 云岫真人,
        // said twice after different characters, is his alias, not a row.
        let store = RunStore::new(&["却说云岫真人来了。一日云岫真人下山。"]);
        let runs = store.runs();
        let m = r.measure(&runs, false, &mut Phases::default());
        let added = r.add_chapter_adepts(vec![said_person("云岫", 3)], &runs, &m);
        assert_eq!(added.len(), 1);
        assert_eq!(
            added[0].aliases.iter().collect::<Vec<_>>(),
            [&"云岫真人".to_string()]
        );
        assert!(!r.adept_sobriquet("云岫", true));
    }

    #[test]
    fn a_role_pointed_at_by_a_demonstrative_is_no_person() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        // 剑客 is said on its own (一个剑客, 两位剑客): 那剑客 points at a
        // role. 千山 never is: 那千山 is a man of the surname 那. 韩千山's
        // 韩 is no demonstrative.
        let text = "那剑客道：“来。”那剑客笑道：“好。”那剑客问道：“谁？”\
                    来了一个剑客。两位剑客同行。那千山道：“走。”\
                    那千山笑道：“好。”韩千山道：“来。”\
                    那柯生道：“走。”柯生笑道：“好。”这柯生问道：“谁？”\
                    苏青禾道：“走。”那苏青禾笑道：“好。”苏青禾问道：“谁？”";
        let store = RunStore::new(&[text]);
        let runs = store.runs();
        let m = r.measure(&runs, false, &mut Phases::default());
        for (w, count, want) in [
            ("那剑客", 3, true),
            ("那千山", 2, false),
            ("韩千山", 1, false),
            // Pointed at twice in three mentions; once in three.
            ("柯生", 3, true),
            ("苏青禾", 3, false),
        ] {
            assert_eq!(r.pointed_role(w, count, &m), want, "{w}");
        }
        let kept =
            r.drop_pointed_roles(vec![said_person("那剑客", 3), said_person("那千山", 2)], &m);
        let names: Vec<&str> = kept.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["那千山"]);
    }

    #[test]
    fn a_function_character_surname_and_a_common_given_name_by_table() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        let stat = |count: u32, say: u32, ld: u32, rd: u32| Stat {
            count,
            say,
            left_distinct: ld,
            right_distinct: rd,
            ..Stat::default()
        };
        let table = [
            ("于文", stat(8, 2, 4, 4), true),
            ("何文", stat(30, 3, 9, 12), true),
            // 王 is no function character: the rules judge 王文 as usual.
            ("王文", stat(8, 2, 4, 4), false),
            // 故 and 后 are seldom in given names (何故, 于后).
            ("何故", stat(8, 2, 4, 4), false),
            ("于后", stat(8, 2, 4, 4), false),
            // too few speech cues, too few mentions, too few neighbours
            ("于文", stat(30, 2, 9, 9), false),
            ("于文", stat(4, 2, 4, 4), false),
            ("于文", stat(8, 2, 2, 4), false),
            ("于文", stat(8, 2, 4, 2), false),
        ];
        for (w, st, want) in table {
            assert_eq!(r.function_surname_name(w, &st), want, "{w} {st:?}");
        }
    }

    #[test]
    fn named_battle_arrays_by_table() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        let seen = |count: u32, left: &str, right: &str, entered: u32| ArraySeen {
            count,
            left: left.chars().collect(),
            right: right.chars().collect(),
            entered,
        };
        let varied = seen(6, "入破。", "中内。", 2);
        let table = [
            ("玄冰阵", varied.clone(), true),
            // a numeral may start an array's name (七煞阵)
            ("七煞阵", varied.clone(), true),
            ("迷魂阵", varied.clone(), false),
            ("摆开阵", varied.clone(), false),
            ("杀一阵", varied.clone(), false),
            ("破此阵", varied.clone(), false),
            ("冲宋阵", varied.clone(), false),
            ("见对阵", varied.clone(), false),
            ("去见阵", varied.clone(), false),
            ("玄冰城", varied.clone(), false),
            ("玄冰阵", seen(2, "入破。", "中内。", 2), false),
            ("玄冰阵", seen(6, "入", "中内。", 2), false),
            ("玄冰阵", seen(6, "入破。", "中内。", 0), false),
        ];
        for (w, s, want) in table {
            assert_eq!(r.named_array(w, &s), want, "{w} {s:?}");
        }
    }

    #[test]
    fn a_named_battle_array_the_book_enters_is_a_place() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        let text = "柯北辰摆下玄冰阵。苏青禾道：“我去破玄冰阵。”次日杀入玄冰阵中，\
            玄冰阵内寒气逼人。柯北辰阵上大乱，众将又来到阵前，杀一阵，又杀一阵，再杀一阵。";
        let store = RunStore::new(&[text]);
        let runs = store.runs();
        let first = vec![said_person("柯北辰", 2)];
        let added = r.add_named_arrays(first, &runs);
        let got: Vec<(&str, EntityType, u32)> = added
            .iter()
            .map(|d| (d.name.as_str(), d.kind, d.count))
            .collect();
        assert_eq!(
            got,
            [
                ("柯北辰", EntityType::Person, 2),
                ("玄冰阵", EntityType::Place, 4),
            ]
        );
    }

    #[test]
    fn a_name_holding_a_function_character_said_with_speech_is_a_person() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        // 柯不凋 and 韩我狂 speak; 何不早说 is "why not say so earlier"
        // (何不 is a word), 王不肯 a verb phrase; 柯不凋 said once inside
        // a decided name is no second person.
        let speaker = |name: &str| {
            format!(
                "{name}道：“来了。”众人见{name}大怒。忽听{name}冷笑道：“好。”\
                 掌门{name}拔剑。只见{name}站起。又问{name}道：“何事？”"
            )
        };
        let text = [
            speaker("柯不凋"),
            speaker("韩我狂"),
            speaker("何不早"),
            speaker("王不肯"),
        ]
        .concat();
        let store = RunStore::new(&[text.as_str()]);
        let runs = store.runs();
        let added = r.add_function_char_names(vec![said_person("石敢当", 3)], &runs);
        let names: Vec<(&str, EntityType)> =
            added.iter().map(|d| (d.name.as_str(), d.kind)).collect();
        assert_eq!(
            names,
            [
                ("柯不凋", EntityType::Person),
                ("石敢当", EntityType::Person),
                ("韩我狂", EntityType::Person),
            ]
        );
        let first = vec![said_person("柯不凋寒", 3)];
        let added = r.add_function_char_names(first, &runs);
        assert!(!added.iter().any(|d| d.name == "柯不凋"));
    }

    #[test]
    fn a_homograph_faction_reads_as_a_polity_by_table() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        let others = ["霜月宗".to_string()];
        // (text, the homograph, reads as a polity); the whole text is the
        // mention's sentence.
        let table = [
            ("天色大明，众人上山来。", "大明", false),
            ("明朝你便少做些炊饼。", "明朝", false),
            ("壮士一身已许国，此行不回。", "许国", false),
            ("保家卫国，人人有责。", "卫国", false),
            // a pronoun before it, a title after it
            ("我大明天子有旨。", "大明", true),
            // an era after it
            ("明朝末年，天下大乱。", "明朝", true),
            // a polity verb and a movement word before it
            ("兵马投大明去了。", "大明", true),
            ("次日前往许国献剑。", "许国", true),
            // another of the book's factions in its sentence
            ("换言之，明朝只需守住关口，霜月宗必不敢来。", "明朝", true),
        ];
        for (text, word, want) in table {
            let store = RunStore::new(&[text]);
            let runs = store.runs();
            let run = runs.iter().find(|run| run.text.contains(word)).unwrap();
            let start = run.text.find(word).unwrap() as u32;
            let i = run.off.binary_search(&start).unwrap();
            let j = i + word.chars().count();
            let got = r.polity_read(&run, i, j, &others, || vec![text]);
            assert_eq!(got.reads_as_polity(), want, "{text} {got:?}");
        }
    }

    #[test]
    fn a_homograph_faction_goes_where_no_mention_reads_as_one() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        let faction = |name: &str| Decided {
            name: name.to_string(),
            kind: EntityType::Faction,
            score: 0.9,
            evidence: std::iter::once("lex").collect(),
            aliases: BTreeSet::new(),
            count: 2,
        };
        let text = "天色大明，众人上山来。明朝末年，天下大乱。明朝你便少做些。";
        let store = RunStore::new(&[text]);
        let kept = r.drop_homograph_factions(vec![faction("大明"), faction("明朝")], &store.runs());
        let names: Vec<&str> = kept.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["明朝"]);
    }

    #[test]
    fn a_faction_in_another_word_by_table() {
        let r = Recognizer::new(crate::entity::Lexicon::builtin());
        let persons: HashSet<&str> = ["柯北辰"].into();
        // (text, the faction, in another word)
        let table = [
            // a conjunction across the left edge, a word across the right
            ("女眷先行起身，然后金公告别。", "后金", true),
            // a longer dictionary word holding it (a stone: 大理石, marble)
            ("铺了大理石台阶。", "大理", true),
            // one of the book's persons across the left edge
            ("柯北辰教他武艺", "北辰教", true),
            ("北燕大军南下", "北燕", false),
            ("昔日南唐时，", "南唐", false),
            ("柯北辰投了霜月宗", "霜月宗", false),
            // the state's people and its soldiers in common speech
            ("日本人占了县城", "日本", false),
            ("日本鬼子进村了", "日本", false),
            ("然后金兵大至", "后金", true),
        ];
        for (text, faction, want) in table {
            let start = text.find(faction).unwrap();
            let got = r.in_other_word(text, start, start + faction.len(), &persons);
            assert_eq!(got, want, "{text} {faction}");
        }
    }

    #[test]
    fn given_names_by_table() {
        let r = Recognizer::new(Lexicon::builtin());
        let store = RunStore::new(&["他们说话。"]);
        let runs = store.runs();
        for (rule, persons, want) in GIVEN_NAMES {
            let decided: Vec<Decided> = persons
                .iter()
                .map(|&(name, count, sur)| {
                    let evidence: &[&'static str] = if sur { &["sur", "say"] } else { &["say"] };
                    decided_owned(name.into(), EntityType::Person, 0.9, evidence, count)
                })
                .collect();
            let got = super::super::alias_rows(&r.resolve_nested(decided, &runs));
            let want = super::super::expected_rows(want);
            assert_eq!(got, want, "{rule}");
        }
    }

    #[test]
    fn slang_armies_by_table() {
        let r = Recognizer::new(Lexicon::builtin());
        // (rule, named armies with counts, text, slang armies added)
        type SlangCase = (
            &'static str,
            &'static [(&'static str, u32)],
            String,
            &'static [(&'static str, u32)],
        );
        let cases: &[SlangCase] = &[
            (
                "used as much as the named armies: an army",
                &[("北燕兵", 20)],
                "番兵来了。".repeat(6),
                &[("番兵", 6)],
            ),
            (
                "used rarely beside a named army: a word",
                &[("北燕兵", 100)],
                "番兵来了。".repeat(6),
                &[],
            ),
            (
                "fewer than five times: a word",
                &[],
                "官兵来了。".repeat(4),
                &[],
            ),
            (
                "the only army of a book that names none",
                &[],
                "官兵来了。".repeat(5),
                &[("官兵", 5)],
            ),
            (
                "a slang word for soldiers of dict/slang_armies.txt",
                &[("北燕兵", 20)],
                "鬼子来了。".repeat(6),
                &[("鬼子", 6)],
            ),
            (
                "a modern state's short name + 军",
                &[("北燕兵", 20)],
                "日军来了。".repeat(6),
                &[("日军", 6)],
            ),
            (
                "今日兵马: a state's short name said rarely is no army",
                &[("北燕兵", 20)],
                "今日兵马来了。".repeat(4),
                &[],
            ),
            (
                "already an army: not twice",
                &[("番兵", 6)],
                "番兵来了。".repeat(6),
                &[],
            ),
        ];
        for (rule, named, text, want) in cases {
            let store = RunStore::new(&[text.as_str()]);
            let runs = store.runs();
            let armies: Vec<Decided> = named
                .iter()
                .map(|&(n, c)| decided_owned(n.into(), EntityType::Army, 0.9, &["army"], c))
                .collect();
            let got: Vec<(String, u32)> = r
                .add_slang_armies(armies, &runs)
                .into_iter()
                .skip(named.len())
                .map(|d| (d.name, d.count))
                .collect();
            let want: Vec<(String, u32)> = want.iter().map(|&(n, c)| (n.to_string(), c)).collect();
            assert_eq!(got, want, "{rule}");
        }
    }

    #[test]
    fn unit_armies_by_table() {
        let r = Recognizer::new(Lexicon::builtin());
        let ranks = "团长到了。营长到了。连长到了。".repeat(3);
        // (rule, text, units added with their counts)
        type UnitCase = (&'static str, String, &'static [(&'static str, u32)]);
        let cases: &[UnitCase] = &[
            (
                "a numbered series is units",
                ranks.clone() + "一营出发。二营出发。一营到了。二营到了。",
                &[("一营", 2), ("二营", 2)],
            ),
            (
                "one numbered alone may be 一团 a mass",
                ranks.clone() + &"乱成一团。".repeat(3),
                &[],
            ),
            (
                "一 + echelon after a complement or aspect is a mass",
                ranks.clone() + "二团出发。三团出发。二团到了。三团到了。挤成一团。缩成了一团。",
                &[("三团", 2), ("二团", 2)],
            ),
            (
                "a numbered unit said three times stands alone",
                ranks.clone() + "三营出发。三营到了。三营回来了。",
                &[("三营", 3)],
            ),
            (
                "twice alone is not enough",
                ranks.clone() + "三营出发。三营到了。",
                &[],
            ),
            (
                "一 alone is a count or an adverb however often said",
                ranks.clone() + &"连长一连喊了三声。".repeat(3),
                &[],
            ),
            (
                "with 第 no series is needed",
                ranks.clone() + "第三营出发。第三营到了。",
                &[("第三营", 2)],
            ),
            (
                "a word before the echelon, three times",
                ranks.clone() + "独立团出发。独立团到了。独立团回来了。",
                &[("独立团", 3)],
            ),
            (
                "twice is not enough",
                ranks.clone() + "独立团出发。独立团到了。",
                &[],
            ),
            (
                "no commander written: no units",
                "一营出发。二营出发。一营到了。二营到了。".repeat(2),
                &[],
            ),
            (
                "the echelon starts a word with what follows",
                ranks.clone() + &"警卫连忙跑来。".repeat(3),
                &[],
            ),
            (
                "a count is no ordinal",
                ranks.clone() + &"两团人马到了。两营人马到了。".repeat(3),
                &[],
            ),
            (
                "three numerals read digit by digit are a designation",
                ranks.clone() + "三八五团出发。三八五团到了。",
                &[("三八五团", 2)],
            ),
            (
                "with 十 they are a number that needs a series",
                ranks.clone() + "三十五团出发。三十五团到了。",
                &[],
            ),
        ];
        for (rule, text, want) in cases {
            let store = RunStore::new(&[text.as_str()]);
            let runs = store.runs();
            let got: Vec<(String, u32)> = r
                .add_unit_armies(Vec::new(), &runs, false)
                .into_iter()
                .map(|d| (d.name, d.count))
                .collect();
            let want: Vec<(String, u32)> = want.iter().map(|&(n, c)| (n.to_string(), c)).collect();
            assert_eq!(got, want, "{rule}");
        }
    }

    #[test]
    fn a_chapter_names_units_of_every_echelon_whose_commander_it_writes() {
        let r = Recognizer::new(Lexicon::builtin());
        // Commanders of two echelons, one or two times each: a chapter of
        // a modern army, not a book, which names the units of every echelon
        // (骑兵连, though it never writes a 连长).
        let text = "韩团长来了。柯营长到了。韩团长说话。\
                    三营出发。一营跟上。三营到了。一营也到了。\
                    骑兵连，上！骑兵连的马到了。";
        let store = RunStore::new(&[text]);
        let runs = store.runs();
        let units = |short: bool| -> Vec<String> {
            r.add_unit_armies(Vec::new(), &runs, short)
                .into_iter()
                .map(|d| d.name)
                .collect()
        };
        assert_eq!(units(true), ["一营", "三营", "骑兵连"]);
        // Read as a book, no echelon's commander is written three times.
        assert!(units(false).is_empty());
        // A chapter with a single commander written once names no units.
        let store = RunStore::new(&["柯营长到了。三营出发。一营跟上。三营到了。一营也到了。"]);
        assert!(r
            .add_unit_armies(Vec::new(), &store.runs(), true)
            .is_empty());
    }

    #[test]
    fn sects_by_table() {
        let r = Recognizer::new(Lexicon::builtin());
        // (rule, text, sects found)
        let cases: &[(&str, &str, &[&str])] = &[
            (
                "a stem + suffix followed by member words twice",
                "霞教门下弟子甚多。霞教门人来了。霞教大怒。",
                &["霞教"],
            ),
            ("once is not enough", "霞教门下来了。霞教大怒。", &[]),
            ("a numeral is no stem", "叁教门下来了。叁教门人去了。", &[]),
            (
                "a stem that ends a word with the character before it",
                "峨眉派弟子来了。峨眉派门下去了。",
                &[],
            ),
            (
                "a dictionary word that is no proper name",
                "分派弟子守城。分派门人去了。",
                &[],
            ),
        ];
        for (rule, text, want) in cases {
            let store = RunStore::new(&[*text]);
            let runs = store.runs();
            let got: Vec<(String, EntityType, u32)> = r
                .add_sects(Vec::new(), &runs)
                .into_iter()
                .map(|d| (d.name, d.kind, d.count))
                .collect();
            let want: Vec<(String, EntityType, u32)> = want
                .iter()
                .map(|w| {
                    (
                        w.to_string(),
                        EntityType::Faction,
                        text.matches(w).count() as u32,
                    )
                })
                .collect();
            assert_eq!(got, want, "{rule}");
        }
    }

    #[test]
    fn a_direction_before_a_word_said_alone_and_after_another_direction_is_a_position() {
        let r = Recognizer::new(Lexicon::builtin());
        let store = RunStore::new(&[
            "韩千山走进西厢房，西厢房里无人。东厢房亮着灯，厢房外站着家丁，厢房门开了。",
            "柯北辰住在北辰宫，北辰宫外有兵。南辰宫是一座空殿。",
            "北山庵在城西，北山庵里有僧。",
        ]);
        let runs = store.runs();
        let decided = vec![
            decided_owned("西厢房".into(), EntityType::Place, 0.6, &["sfx"], 2),
            // said with another direction, never alone: a name (北辰宫, 南辰宫)
            decided_owned("北辰宫".into(), EntityType::Place, 0.6, &["sfx"], 2),
            // never said alone nor after another direction
            decided_owned("北山庵".into(), EntityType::Place, 0.6, &["sfx"], 2),
        ];
        let kept: Vec<String> = r
            .drop_direction_positions(decided, &runs)
            .into_iter()
            .map(|d| d.name)
            .collect();
        assert_eq!(kept, vec!["北辰宫", "北山庵"]);
    }

    #[test]
    fn a_name_straddling_a_stronger_one_goes_even_in_one_long_run() {
        let r = Recognizer::new(Lexicon::builtin());
        // One unpunctuated run of 50 000 characters: each match looks only
        // at its neighbours, so this stays linear.
        let text = "守住山海关".repeat(10_000);
        let store = RunStore::new(&[text.as_str()]);
        let runs = store.runs();
        let decided = vec![
            decided_owned("山海关".into(), EntityType::Place, 0.9, &["lex"], 10_000),
            decided_owned("住山".into(), EntityType::Place, 0.5, &["sfx"], 10_000),
        ];
        let kept: Vec<String> = r
            .drop_overlapped(decided, &runs)
            .into_iter()
            .map(|d| d.name)
            .collect();
        assert_eq!(kept, vec!["山海关"]);
    }
}
