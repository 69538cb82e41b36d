//! Judge: the hand-written verdict on one candidate from its statistics:
//! person, place or lexicon faction (phase 1), army (phase 2). Its scores
//! are also features of the learned model.

use super::*;

/// How many times one kind's cues must outnumber the other's (movement and
/// location for a place; speech, action, command and title for a person)
/// to decide between the two.
const CUE_ODDS: u32 = 3;

/// A listed faction said this often, always before the same character, is
/// a piece of a longer word.
const PIECE_MIN_COUNT: u32 = 10;

/// jieba's corpus frequency below which a dictionary word, and its tag, do
/// not veto a name that strong, repeated cues support (燃灯: 3, tagged n).
const RARE_WORD_FREQ: usize = 20;

/// A unit counted in troops (三千X兵) at least this often, and at
/// `1 / COUNTED_SHARE` of its mentions, is an army.
const COUNTED_MIN: u32 = 2;
const COUNTED_SHARE: u32 = 5;

fn counted_troops(st: &Stat) -> bool {
    let counted = counted_mentions(st);
    counted >= COUNTED_MIN && counted * COUNTED_SHARE >= st.count
}

/// Mentions with a count of troops before or after (三千|X兵, X骑|三千).
fn counted_mentions(st: &Stat) -> u32 {
    st.after_count + st.before_count
}

/// How often a sobriquet + title (玄霜真人) must be said to be a name.
const TITLED_MIN_COUNT: u32 = 3;

/// How often an adept's sobriquet + religious title must be said, with
/// cues at a fifth, to be a name when the model did not take it.
const TITLED_STRONG_MIN: u32 = 5;

/// How often a surname + a clan word (于氏) must be said, with cues at a
/// fifth, to be a name when the rules and the model did not take it.
const CLAN_NAME_MIN: u32 = 3;

/// How often a surname that is also a function character + one given-name
/// character (余元) must be said, with speech cues after a tenth, to be a
/// name when the rules and the model did not take it.
const FUNCTION_SURNAME_MIN: u32 = 5;

/// How many of jieba's person names (`dict/given_name_chars.tsv`) must hold
/// a character for it to count as a common given name (元 284, 庆 182; not
/// 后 85, 言 56, 故 2).
const COMMON_GIVEN_MIN: u32 = 100;

/// How often a surname + a function character + one more (X不Y) must be
/// said, with speech cues after a fifth of the mentions, to be a name.
const FUNCTION_NAME_MIN: u32 = 5;

/// What a book says around a surname + a function character + one more
/// character (`function_char_name`): how often, the characters before it,
/// and how often a speech cue follows.
#[derive(Debug, Default, Clone, PartialEq)]
pub(super) struct NameSeen {
    pub count: u32,
    pub left: BTreeSet<char>,
    pub said: u32,
}

impl NameSeen {
    /// Adds what another slice of the book saw.
    pub(super) fn absorb(&mut self, other: NameSeen) {
        self.count += other.count;
        self.left.extend(other.left);
        self.said += other.said;
    }
}

/// How often a named battle array must be said to be a place.
const ARRAY_MIN_COUNT: u32 = 3;

/// What a book says around a possible battle array (`named_array`): how
/// often, the characters before and after it (any punctuation counts as
/// one), and how often a movement cue stands right before it (入X阵).
#[derive(Debug, Default, Clone, PartialEq)]
pub(super) struct ArraySeen {
    pub count: u32,
    pub left: BTreeSet<char>,
    pub right: BTreeSet<char>,
    pub entered: u32,
}

impl ArraySeen {
    /// Adds what another slice of the book saw.
    pub(super) fn absorb(&mut self, other: ArraySeen) {
        self.count += other.count;
        self.left.extend(other.left);
        self.right.extend(other.right);
        self.entered += other.entered;
    }
}

/// Times a surname + 夫人/太太 must be said to be a person of its own.
const LADY_MIN_COUNT: u32 = 5;

impl Recognizer {
    /// Whether a stem (the part of a candidate before its suffix) can start
    /// a name: not a function character (a numeral may start a place:
    /// 八达岭), not a cue word (距离锦州, 来自锦州, 打居庸关).
    pub(super) fn stem_ok(&self, stem: &str, numeral_ok: bool) -> bool {
        let chars: Vec<char> = stem.chars().collect();
        let Some(&first) = chars.first() else {
            return false;
        };
        if self.is_function_char(first)
            && !(numeral_ok && self.numerals.contains(&first) && chars.len() > 1)
        {
            return false;
        }
        if chars.len() >= 2 {
            for l in 1..chars.len() {
                let head: String = chars[..l].iter().collect();
                let cue = self.cues.get(head.as_str());
                if cue.is_some_and(|c| {
                    c[class_index(CueClass::Movement)] >= 2
                        || c[class_index(CueClass::Command)] >= 2
                        || c[class_index(CueClass::Speech)] >= 3
                        || (l >= 2 && c[class_index(CueClass::Action)] >= 2)
                }) {
                    return false;
                }
            }
        }
        true
    }

    /// Whether a string is an ordinary word of two or more characters
    /// followed by another or by a locative.
    pub(super) fn plain_words_joined(&self, chars: &[char]) -> bool {
        let len = chars.len();
        for cut in 2..len {
            let head: String = chars[..cut].iter().collect();
            if !self.is_plain_word(&head) {
                continue;
            }
            let tail: String = chars[cut..].iter().collect();
            let tail_len = len - cut;
            // The tail's tag is not trusted (丘陵 is tagged a person name).
            if (tail_len == 1 && self.chars.locative.contains(&chars[cut]))
                || (tail_len >= 2
                    && !self.lex.places.contains(&tail)
                    && self.is_frequent_word(&tail, 100))
            {
                return true;
            }
        }
        false
    }

    /// A string jieba's corpus uses fewer than `RARE_WORD_FREQ` times (or
    /// never): its dictionary entry and tag say little about it.
    fn is_rare_word(&self, w: &str) -> bool {
        !self.is_frequent_word(w, RARE_WORD_FREQ)
    }

    /// A common word in jieba's dictionary whose tag is not a name tag.
    pub(super) fn is_plain_word(&self, w: &str) -> bool {
        self.tag_of(w) == Some(Tag::Other)
    }

    /// Phase 1: decides one candidate string as a person, place or
    /// lexicon faction.
    pub(super) fn judge(&self, w: &str, st: &Stat, m: &Measured) -> Option<Decided> {
        let chars: Vec<char> = w.chars().collect();
        let len = chars.len();
        if len < 2 || self.is_generic(w) {
            return None;
        }
        if self.lex.factions.contains(w) {
            // Multi-character factions; single-character ones come in add_factions.
            // Not when every mention cuts a word, or most cut a title
            // (大元|帅), nor when a frequent one is always followed by the
            // same character: a piece of a longer word (黄巾|力士).
            let piece = st.count >= PIECE_MIN_COUNT && st.same_right();
            if w.ends_with('人')
                || st.left_bad + st.right_bad >= st.count
                || 2 * st.right_title_cut > st.count
                || piece
            {
                return None;
            }
            return Some(decided(w, EntityType::Faction, 0.9, &["lex"], st));
        }
        if self.lex.places.contains(w) {
            return Some(decided(w, EntityType::Place, 0.9, &["lex"], st));
        }
        // 北番, 西戎: a direction + a word for foreigners names a foreign
        // people or state, whatever the verbs around it.
        if len == 2
            && self.chars.direction.contains(&chars[0])
            && self.chars.exonym.contains(&chars[1])
            && st.count >= 3
        {
            return Some(decided(w, EntityType::Faction, 0.7, &["exo"], st));
        }
        // An army word is decided in phase 2, never as a person or place.
        if self.is_army_word(w) {
            return None;
        }
        // Boundaries: most occurrences must not cut a common word.
        if (st.left_bad + st.right_bad) as f64 > 0.5 * st.count as f64 {
            return None;
        }
        // Always the same neighbour on one side: a piece of a longer word (山间通|道).
        if st.count >= 3 && (st.same_right() || st.same_left()) {
            return None;
        }
        // A faction's suffix may be an ordinary word (平安|镖局, 长风|剑派):
        // read before the test below.
        if let Some(f) = self.faction_score(w, &chars, st, m) {
            return Some(f);
        }
        // Two ordinary words side by side (山谷入口, 两侧山崖), or one and a
        // locative (山谷中).
        if self.plain_words_joined(&chars) {
            return None;
        }
        let person = self.person_score(w, &chars, st);
        let place = self.place_score(w, &chars, st, m);
        match (person, place) {
            // One kind's cues outnumbering the other's three to one decide;
            // else the better score.
            (Some(_), Some(l)) if st.place_cues() >= CUE_ODDS * st.person_cues().max(1) => Some(l),
            (Some(p), Some(_)) if st.person_cues() >= CUE_ODDS * st.place_cues().max(1) => Some(p),
            (Some(p), Some(l)) => Some(if p.score >= l.score { p } else { l }),
            (p, l) => p.or(l),
        }
    }

    /// A sect, society, gang, party, league or company named by a two- or
    /// three-character stem and a faction suffix (峨眉派, 天地会, 天盛集团), said again and again, whose stem and
    /// suffix do not make an ordinary word (机会, 宴会, 分明教: 明教 cut out
    /// of 分明 is refused because 分明 is a word across its left edge).
    pub(super) fn faction_score(
        &self,
        w: &str,
        chars: &[char],
        st: &Stat,
        m: &Measured,
    ) -> Option<Decided> {
        let len = chars.len();
        if len < 3 {
            return None;
        }
        // A two-character suffix (天盛集团) or a one-character one (峨眉派).
        let two: String = chars[len - 2..].iter().collect();
        let last = chars[len - 1].to_string();
        let (slen, weight) = match self.lex.faction_suffixes.get(&two) {
            Some(&weight) => (2, weight),
            None => (1, *self.lex.faction_suffixes.get(&last)?),
        };
        let stem_len = len - slen;
        let stem: String = chars[..stem_len].iter().collect();
        // A one-character stem is too often a verb (钦派, 添派: 派 "send").
        if !(2..=3).contains(&stem_len) || weight < 2 || st.count < 3 {
            return None;
        }
        // 圣上钦派, 奉旨钦派: no ordinary word inside the stem; but a
        // school may be named after a mountain however common its name
        // (华山派, 天山派: jieba tags the stem a place).
        if (0..stem_len).any(|a| {
            (a + 2..=stem_len).any(|b| {
                let part: String = chars[a..b].iter().collect();
                let whole_stem = a == 0 && b == stem_len && weight >= 3;
                self.is_plain_word(&part)
                    && !(whole_stem
                        && (!self.is_frequent_word(&part, 100)
                            || self.tag_of(&part) == Some(Tag::Place)))
            })
        }) {
            return None;
        }
        // The stem's last character and the suffix (a suffix word of two
        // is itself an ordinary word: 集团).
        let tail: String = chars[stem_len - 1..].iter().collect();
        // A suffix that is also a function character (会, "can") follows a
        // name as a verb would (X会骑马): the stem then stands without it
        // far more often than with it.
        let suffix_is_function = slen == 1 && self.is_function_char(chars[len - 1]);
        // A strong suffix other than a verb's character (派 "send") names a
        // school however common its stem (云海宗: a sea of clouds).
        let any_stem = weight >= 3 && slen == 1 && !self.verbish.contains(&chars[len - 1]);
        if (self.is_generic(&stem) && !any_stem)
            || !(self.stem_ok(&stem, false) || (any_stem && self.vocab.has_word(&stem)))
            || chars[..stem_len].iter().any(|c| self.is_function_char(*c))
            || (suffix_is_function && m.count(&stem) >= 2 * st.count)
            || self.is_plain_word(w)
            || (slen == 1 && self.is_plain_word(&tail))
            // 奏真宗, 教戴宗: the last two are said on their own far more
            // often (a person named with the suffix's character), the
            // rest is a verb before him.
            || (slen == 1 && m.count(&tail) >= 2 * st.count)
            || (weight < 3 && self.is_plain_word(&stem) && self.is_frequent_word(&stem, 100))
            || st.left_bad + st.right_bad + st.left_word_cut > 0
            || (st.count >= 3 && st.left_distinct == 1 && st.left_punct == 0)
        {
            return None;
        }
        Some(decided(w, EntityType::Faction, 0.6, &["sfx"], st))
    }

    /// Distinct neighbours on the left and on the right (a run edge is one).
    pub(super) fn diversity(&self, st: &Stat) -> (usize, usize) {
        let lp = usize::from(st.left_punct > 0);
        let rp = usize::from(st.right_punct > 0);
        (
            st.left_distinct as usize + lp,
            st.right_distinct as usize + rp,
        )
    }

    /// Phase 2: an army name (faction, place, direction, X家 or a repeated
    /// unknown stem + army suffix). `stems`: the places and factions
    /// phase 1 decided.
    pub(super) fn judge_army(
        &self,
        w: &str,
        st: &Stat,
        m: &Measured,
        stems: &HashSet<&str>,
    ) -> Option<Decided> {
        if self.is_generic(w) {
            return None;
        }
        // 八路军, 湘军: a well-known army of dict/armies.txt, unless every
        // mention cuts a word (八路|军马: eight columns of horse).
        if self.lex.armies.contains(w) {
            if st.left_bad + st.right_bad >= st.count {
                return None;
            }
            return Some(decided(w, EntityType::Army, 0.85, &["lex"], st));
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
        // 第三营, 第十二师: a numbered unit.
        let numbered = stem_len >= 2
            && stem.starts_with('第')
            && stem
                .chars()
                .skip(1)
                .all(|c| self.numerals.contains(&c) || c.is_ascii_digit());
        if numbered && weight >= 2 {
            return Some(decided(w, EntityType::Army, 0.75, &["army"], st));
        }
        if (st.left_bad + st.right_bad) as f64 > 0.5 * st.count as f64 {
            return None;
        }
        // 著士兵, 上京师: the stem's last character and the suffix make an
        // ordinary word (士兵, 京师), so the suffix is not one here.
        let seam: String = [chars[stem_len - 1], chars[stem_len]].iter().collect();
        if stem_len >= 2 && self.is_plain_word(&seam) && !self.lex.army_suffixes.contains_key(&seam)
        {
            return None;
        }
        if !self.stem_ok(&stem, false) || stem.chars().skip(1).any(|c| self.is_function_char(c)) {
            return None;
        }
        // 远恶军|州: always the same neighbour, a piece of a longer word.
        if st.count >= 3 && (st.same_right() || st.same_left()) {
            return None;
        }
        let mut evidence = vec!["army"];
        // 秦军, 宋军; but not 韩先锋 (a surname and a title) nor 点清军马
        // (清 glued into the word 点清).
        // 宋营, 金营: a one-character faction's camp, said again and again,
        // is its army; so is its host in classical text (宋师, 楚师) where
        // the book names its troops (宋兵, 宋军) as often (not 明师, an
        // enlightened teacher).
        let host = || {
            let troops = m.count(&format!("{stem}兵")) + m.count(&format!("{stem}军"));
            st.count >= 3 && troops >= st.count
        };
        // 调齐人马, 点齐人马: a one-character state glued after a verb as
        // its complement, never opening a clause and always after the same
        // one or two verbs; a state's army opens clauses or follows varied
        // words.
        let varied = st.count < 3 || st.left_punct > 0 || st.left_distinct >= 3;
        // 金营 said once in a chapter that names 金 or 金国 a faction: the
        // state's camp, as in a book that says it three times.
        let named_state = |stem: &str| {
            stems.contains(stem)
                || ["国", "朝"]
                    .iter()
                    .any(|t| stems.contains(format!("{stem}{t}").as_str()))
        };
        let faction = self.is_faction_stem(&stem)
            && (stem_len > 1
                || ((weight >= 3
                    || (suffix == "营"
                        && (st.count >= 3
                            || (m.total_chars < SHORT_TEXT && named_state(&stem))))
                    || (suffix == "师" && host()))
                    && st.left_word_cut < st.count
                    && varied));
        let place = self.lex.places.contains(&stem) || stems.contains(stem.as_str());
        // In a chapter, a unit said twice and counted in troops once
        // (率铁鹞骑驰援, 铁鹞骑三千).
        let counted_in_chapter =
            m.total_chars < SHORT_TEXT && st.count >= 2 && counted_mentions(st) >= 1;
        // 柏原大队, 野泽联队: a modern unit (an X队 suffix) named by its
        // commander, whose name the text also says on its own, more often
        // than with the unit, and who is no common word (游击|大队).
        let commander_unit = slen == 2
            && suffix.ends_with('队')
            && stem_len <= 3
            && m.count(&stem) > st.count
            && !self.is_frequent_word(&stem, tagged::COMMON_WORD_FREQ)
            && st.left_word_cut * 4 < st.count;
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
        } else if weight < 2 && !counted_troops(st) {
            // A weak suffix (X卫, X部) makes an army only when the book
            // counts the unit in troops or heads (数十名血X卫).
            return None;
        } else if stem_len == 1 && self.chars.direction.contains(&chars[0]) && suffix == "军" {
            0.6
        } else if stem_len == 2
            && stem.ends_with('家')
            && self
                .lex
                .surnames
                .contains_key(&stem[..stem.len() - '家'.len_utf8()])
        {
            // 柯家军
            evidence.push("sur");
            0.75
        } else if stem_len == 1
            && slen == 1
            && st.after_count >= COUNTED_MIN
            && st.after_count * COUNTED_SHARE >= st.count
            && self.counted_stem(chars[0], w)
        {
            // 三千豹骑: a one-character stem is mostly a verb (领兵, 发兵,
            // 拨兵|五千), but no verb comes after a count of troops.
            evidence.push("stat");
            0.5 + 0.1 * (st.count as f64 / 5.0).min(1.0)
        } else if stem_len == 2
            && (weight >= 3 || counted_troops(st) || counted_in_chapter || commander_unit)
            && (st.count >= 3 || counted_in_chapter)
            && self.stem_ok(&stem, false)
            && !chars[..2].iter().any(|c| self.is_function_char(*c))
            && !self.chars.complement.contains(&chars[1])
            && (counted_troops(st)
                || counted_in_chapter
                || commander_unit
                || ((!(self.is_plain_word(&stem) || self.is_plain_word(w))
                    || (st.count >= 5 && st.left_word_cut * 4 < st.count))
                    && m.count(&stem) <= st.count + st.count / 2))
        {
            // A unit counted in troops (三千飞熊兵) at a fifth of its
            // mentions; or a stem that hardly occurs without the suffix
            // (神武军); one that is a dictionary word (御林, 白袍) needs five
            // mentions, not glued to the word before (鸣金收军 is no 金收军);
            // not a verb and its complement (布开|人马, 撒豆成|兵).
            evidence.push("stat");
            0.5 + 0.1 * (st.count as f64 / 5.0).min(1.0)
        } else {
            return None;
        };
        Some(decided(w, EntityType::Army, score, &evidence, st))
    }

    /// A one-character stem an army counted in troops may have: no word
    /// of jieba's with its suffix (雄兵, 精兵), no numeral, classifier
    /// (三千名|军士), function character, group word (众兵) or settlement
    /// (寨兵, 城兵: the garrison of any stockade or town).
    fn counted_stem(&self, stem: char, w: &str) -> bool {
        !(self.vocab.has_word(w)
            || self.numerals.contains(&stem)
            || self.chars.head_count.contains(&stem)
            || self.chars.person_counter.contains(&stem)
            || self.chars.group.contains(&stem)
            || self.chars.settlement.contains(&stem)
            || self.is_function_char(stem))
    }

    /// 高太尉, 宋太公, 柯员外: what follows the surname is a title or form
    /// of address (but 阮小二's birth order is a given name), so the
    /// string is a form of address, not a name.
    pub(super) fn title_after_surname(&self, gchars: &[char]) -> bool {
        let given: String = gchars.iter().collect();
        let birth_order = gchars.len() == 2
            && matches!(gchars[0], '小' | '大')
            && self.numerals.contains(&gchars[1]);
        (!birth_order
            && (self.lex.address.contains(&given) || self.lex.titles.contains_key(&given)))
            || (1..=gchars.len()).any(|k| {
                let head: String = gchars[..k].iter().collect();
                self.titles.get(&head).is_some_and(|p| p.after_name())
            })
    }

    /// Whether the candidate is a two- or three-character sobriquet
    /// and a title written only after names (玄霜|真人, 青萝|圣母), said at
    /// least `TITLED_MIN_COUNT` times with cues at a tenth of them and
    /// varied neighbours; the stem is no ordinary word, function character,
    /// generic word or title (老|先生, 那|和尚, 大|法师).
    pub(super) fn titled_stem(&self, chars: &[char], st: &Stat) -> bool {
        let len = chars.len();
        let (ld, rd) = self.diversity(st);
        if st.count < TITLED_MIN_COUNT
            || (st.person_cues() as f64) < 0.1 * st.count as f64
            || ld < 2
            || rd < 2
        {
            return false;
        }
        (2..=3).filter(|&k| k + 2 <= len).any(|k| {
            let title: String = chars[k..].iter().collect();
            let stem: String = chars[..k].iter().collect();
            self.titles.get(&title) == Some(&TitlePosition::Post)
                && !self.titles.contains_key(&stem)
                && !self.is_generic(&stem)
                && !self.is_plain_word(&stem)
                && self.stem_ok(&stem, false)
                && !chars[..k].iter().any(|c| {
                    self.is_function_char(*c)
                        || self.numerals.contains(c)
                        || self.chars.pronoun.contains(c)
                })
        })
    }

    /// Whether the candidate is an adept's sobriquet of two or three
    /// characters and a religious title (`dict/titles.txt`: 青霞真人,
    /// 寒光圣母), said as often and as variously as a main character:
    /// at least `TITLED_STRONG_MIN` times, with person cues at a fifth of
    /// them, different characters either side, and seldom after a
    /// demonstrative. The sobriquet may be an ordinary noun (寒光) or
    /// start with a function character (多闻), but it is no verb or
    /// adjective of the dictionary (修行|道人: a role, not a name), holds no
    /// numeral, pronoun, demonstrative or group word (一个|和尚, 众|长老),
    /// and is no title or generic word.
    pub(super) fn titled_sobriquet(&self, w: &str, st: &Stat) -> bool {
        let chars: Vec<char> = w.chars().collect();
        let len = chars.len();
        if !(4..=5).contains(&len) || st.count < TITLED_STRONG_MIN {
            return false;
        }
        let (stem, title) = (&chars[..len - 2], &chars[len - 2..]);
        let title: String = title.iter().collect();
        let stem_text: String = stem.iter().collect();
        let cues = st.person_cues();
        let (ld, rd) = self.diversity(st);
        self.lex.religious_titles.contains(&title)
            && cues >= 3
            && (cues as f64) >= 0.2 * st.count as f64
            && ld >= 3
            && rd >= 3
            && st.after_demonstrative * 5 < st.count
            && self.sobriquet_stem(&stem_text)
    }

    /// Whether a string can be an adept's sobriquet before a religious
    /// title: no title or generic word, no verb or adjective of the
    /// dictionary (修行|道人), no numeral, pronoun, demonstrative or group
    /// word (一个|和尚, 众|长老).
    pub(super) fn sobriquet_stem(&self, stem: &str) -> bool {
        !self.titles.contains_key(stem)
            && !self.is_generic(stem)
            && !self.verb_or_adjective(stem)
            && !stem.chars().any(|c| self.counts_or_points(c))
    }

    /// Whether the candidate is a woman named by her family: a surname +
    /// a clan word (于氏, 欧阳氏: class `clan` of `dict/chars.tsv`), said at
    /// least `CLAN_NAME_MIN` times with person cues at a fifth of them and
    /// at least three, after three different characters (or at the start
    /// of a clause at half the mentions and twice at least: a chapter says
    /// her name four times, 。于氏夫人), and seldom after a demonstrative.
    /// The rules read a surname that is also a function
    /// character (何, 于) or a common one warily, and jieba makes a word of
    /// the clan character alone: the shape and the cues carry it.
    pub(super) fn clan_name(&self, w: &str, st: &Stat) -> bool {
        let chars: Vec<char> = w.chars().collect();
        let len = chars.len();
        if !(2..=3).contains(&len)
            || st.count < CLAN_NAME_MIN
            || !self.chars.clan.contains(&chars[len - 1])
            || self.surname(&chars, w).is_none_or(|(sl, _)| sl != len - 1)
        {
            return false;
        }
        let cues = st.person_cues();
        let (ld, _) = self.diversity(st);
        cues >= 3
            && cues * 5 >= st.count
            && (ld >= 3 || (st.left_punct >= 2 && st.left_punct * 2 >= st.count))
            && st.after_demonstrative * 5 < st.count
            && !self.is_plain_word(w)
            && !self.is_generic(w)
    }

    /// Whether at least `COMMON_GIVEN_MIN` of jieba's person names
    /// (`dict/given_name_chars.tsv`) hold the character: a common given
    /// name (元, 宗), not 后 or 会.
    pub(super) fn common_given_char(&self, c: char) -> bool {
        self.lex
            .given_name_chars
            .get(&c)
            .is_some_and(|&n| n >= COMMON_GIVEN_MIN)
    }

    /// Whether the candidate is a surname that is also a function
    /// character (余, 何, 于) + a character common in given names
    /// (`COMMON_GIVEN_MIN`), said at least `FUNCTION_SURNAME_MIN` times
    /// with a speech cue after a tenth of the mentions and at least twice,
    /// and between four different characters on either side. The rules
    /// want such a given name to be no word, which one character seldom
    /// is (元), and the model follows them; 于后, 何故 and 何足(道) hold no
    /// given name.
    pub(super) fn function_surname_name(&self, w: &str, st: &Stat) -> bool {
        let chars: Vec<char> = w.chars().collect();
        if chars.len() != 2
            || st.count < FUNCTION_SURNAME_MIN
            || !self.is_function_char(chars[0])
            || self
                .surnames
                .get(&chars[0].to_string())
                .is_none_or(|&s| s < 2)
        {
            return false;
        }
        let (ld, rd) = self.diversity(st);
        self.common_given_char(chars[1])
            && st.say >= 2
            && st.say * 10 >= st.count
            && ld >= 4
            && rd >= 4
            && st.after_demonstrative * 5 < st.count
            && !self.is_generic(w)
    }

    /// Whether a word is a verb or an adjective of jieba's dictionary:
    /// before a title or a suffix it names a role or an act, not a name.
    fn verb_or_adjective(&self, w: &str) -> bool {
        let tag = self.vocab.tag(w);
        self.vocab.has_word(w) && (tag.starts_with('v') || tag.starts_with('a'))
    }

    /// Whether a character counts, points or names a group (一, 那, 他,
    /// 众): inside a stem it makes a phrase of it (一个|和尚, 众|长老).
    fn counts_or_points(&self, c: char) -> bool {
        self.numerals.contains(&c)
            || self.chars.pronoun.contains(&c)
            || self.chars.demonstrative.contains(&c)
            || self.chars.group.contains(&c)
    }

    /// Whether a string is a named battle array: a two-character name +
    /// an array character (`array` in `dict/chars.tsv`: 玄冰阵), said at
    /// least `ARRAY_MIN_COUNT` times (`seen`) with different characters
    /// either side, and entered or broken at least once (a movement cue
    /// before it). Not a dictionary word (迷魂阵, 八卦阵: formations any
    /// book names), and the stem is no verb nor starts with a movement
    /// verb (摆开|阵, 来到|阵, 去见|阵前), holds no
    /// pointer, pronoun or group word (破此|阵), does not end with a
    /// numeral (杀一|阵), a side (冲宋|阵, 入番|阵) or a character that
    /// makes a word with the array character (见对|阵, 马出|阵), and is no
    /// title or generic word.
    pub(super) fn named_array(&self, w: &str, seen: &ArraySeen) -> bool {
        let chars: Vec<char> = w.chars().collect();
        if chars.len() != 3 || !self.chars.array.contains(&chars[2]) {
            return false;
        }
        let stem: String = chars[..2].iter().collect();
        let tail: String = chars[1..].iter().collect();
        let mut buf = [0u8; 4];
        let movement_first = self
            .cues
            .get(chars[0].encode_utf8(&mut buf) as &str)
            .is_some_and(|c| c[class_index(CueClass::Movement)] >= 2);
        seen.count >= ARRAY_MIN_COUNT
            && !movement_first
            && seen.left.len() >= 2
            && seen.right.len() >= 2
            && seen.entered >= 1
            && !self.vocab.has_word(w)
            && !self.vocab.has_word(&tail)
            && !self.verb_or_adjective(&stem)
            && !self.titles.contains_key(&stem)
            && !self.is_generic(&stem)
            && !self.numerals.contains(&chars[1])
            && !self.factions_1.contains(&chars[1].to_string())
            && !self.chars.side_slang.contains(&chars[1])
            && !chars[..2].iter().any(|&c| {
                (self.counts_or_points(c) && !self.numerals.contains(&c))
                    || self.chars.self_other.contains(&c)
            })
    }

    /// Whether a surname + a function character + one more character
    /// (`name_function` in `dict/chars.tsv`: 柯不言, 石我行) is a name the
    /// proposer never offers: said at least `FUNCTION_NAME_MIN` times,
    /// after at least three different characters, with a speech cue after
    /// a fifth of the mentions and at least twice; the surname and the
    /// function character are no word (何不|早说: 何不 is "why not"), the
    /// given name is no verb phrase (王不|答道: 不答), and its last
    /// character is no function character or numeral.
    pub(super) fn function_char_name(&self, w: &str, seen: &NameSeen) -> bool {
        let chars: Vec<char> = w.chars().collect();
        if chars.len() != 3
            || !self.chars.name_function.contains(&chars[1])
            || self
                .surnames
                .get(&chars[0].to_string())
                .is_none_or(|&s| s < 2)
        {
            return false;
        }
        let head: String = chars[..2].iter().collect();
        let given: String = chars[1..].iter().collect();
        let given_tag = self.vocab.tag(&given);
        seen.count >= FUNCTION_NAME_MIN
            && seen.left.len() >= 3
            && seen.said >= 2
            && seen.said * 5 >= seen.count
            && !self.vocab.has_word(&head)
            && !self.vocab.has_word(w)
            && !(self.vocab.has_word(&given) && given_tag.starts_with('v'))
            && !self.is_function_char(chars[2])
            && !self.numerals.contains(&chars[2])
            && !self.cues.contains_key(&chars[2].to_string())
    }

    pub(super) fn person_score(&self, w: &str, chars: &[char], st: &Stat) -> Option<Decided> {
        let len = chars.len();
        // 阮小二, 武大: a birth-order given name may hold a numeral.
        let birth_order_at = |k: usize| {
            k >= 1 && matches!(chars[k - 1], '小' | '大') && self.numerals.contains(&chars[k])
        };
        // The surname the string starts with, looked up once.
        let surname = self.surname(chars, w);
        // 马氏, 欧阳氏: a woman named by her family ends with a clan word.
        let clan_at = |k: usize| {
            k == len - 1
                && self.chars.clan.contains(&chars[k])
                && surname.is_some_and(|(sl, _)| sl == k)
        };
        // 苏夫人, 柳太太: a surname + the title of the lady of a house
        // (marked `lady` in dict/titles.txt).
        let lady_form = surname.is_some_and(|(sl, _)| {
            self.lex
                .lady_titles
                .contains(&chars[sl..].iter().collect::<String>())
        });
        if len > 4
            || (!lady_form
                && (1..len).any(|k| {
                    self.not_given.contains(&chars[k])
                        && !(k == len - 1 && birth_order_at(k))
                        && !clan_at(k)
                }))
        {
            return None;
        }
        // 明日早, 方才走: a common word made by the surname and the next
        // character, then one more character.
        if len >= 3 && self.tag_of(w) != Some(Tag::Person) && surname.is_some_and(|(sl, _)| sl == 1)
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
        let sur = surname.filter(|&(sl, _)| (1..=2).contains(&(len - sl)));
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
            if !lady_form && self.name_end_bad.contains(&gchars[gchars.len() - 1]) {
                return None;
            }
            // 苏夫人, 柳太太: the lady of a house, said again and again with
            // person cues, is a person though her title is a family one
            // (her own name may never be written: 王夫人 in Qing fiction).
            let lady =
                lady_form && n >= LADY_MIN_COUNT && cues >= 2 && cues as f64 >= 0.1 * n as f64;
            if lady {
                score += 0.15;
                evidence.push("ttl");
            }
            // 孔目禀, 王观察: a title is no name.
            let titled = (2..=len.min(4)).any(|k| {
                let head: String = chars[..k].iter().collect();
                self.titles.contains_key(&head)
            }) || self.titles.contains_key(&given);
            if titled && !lady {
                return None;
            }
            if !lady && self.title_after_surname(gchars) {
                return None;
            }
            // 银一两, 公孙二: a count is no given name (a birth order is).
            if !birth_order && gchars.iter().all(|c| self.numerals.contains(c)) {
                return None;
            }
            // 西门大|官人: the name ends inside a title that follows it.
            if st.right_title_cut * 2 > n {
                return None;
            }
            // 祝家庄, 李家店: X家 + anything is a family's place or army.
            if gchars[0] == '家' {
                return None;
            }
            // 江湖上, 林子里: a name does not end with a locative.
            if self.chars.position_tail.contains(&gchars[gchars.len() - 1]) {
                return None;
            }
            // 那妇人, 都来, 何人: a surname that is also a function character
            // needs a given name that is no word and cues.
            if self.is_function_char(chars[0])
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
            if self.is_function_char(chars[0])
                && (ld < 4 || rd < 4 || (cues as f64) < 0.2 * n as f64)
            {
                return None;
            }
            // 石碣村, 山寨中: a given name holds no settlement word (but 定国 may).
            if gchars.iter().any(|c| self.chars.settlement.contains(c)) {
                return None;
            }
            score += [0.0, 0.15, 0.3, 0.35][sw as usize];
            evidence.push("sur");
        } else if self.titled_stem(chars, st) {
            // 玄霜真人, 北溟仙翁: a sobriquet + a title written after names,
            // said again and again: the title is the cue.
            score += 0.3;
            evidence.push("ttl");
        } else {
            // No surname: only strong, repeated evidence, varied
            // neighbours, and no word inside (汉慌忙).
            if n < 3 || (cues as f64) < 0.4 * n as f64 || cues < 3 || ld < 3 || rd < 3 {
                return None;
            }
            // A word jieba's corpus rarely uses (燃灯, 3 times) does not
            // veto such evidence; a common one (老者, 军士) does.
            let rare_word = self.is_rare_word(w);
            if (self.vocab.has_word(w) && !rare_word)
                || chars.iter().any(|c| self.is_function_char(*c))
            {
                return None;
            }
            // 来寻, 看罢, 冈子, 上厅: no verb, suffix or locative at an edge.
            let edge_bad = |c: char| {
                self.verbish.contains(&c)
                    || self.chars.locative.contains(&c)
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
                    if self.is_plain_word(&part) && !(a == 0 && b == len && rare_word) {
                        return None;
                    }
                }
            }
            evidence.push("stat");
        }
        // 那汉, 这厮, 一个妇人: a noun after a demonstrative or classifier.
        if st.after_demonstrative as f64 > 0.3 * n as f64 {
            return None;
        }
        // jieba's tag of a word its corpus rarely uses (燃灯 n, 3 times)
        // does not veto cues on four in ten of the book's mentions.
        let weak_tag = self.is_rare_word(w) && n >= 3 && cues as f64 >= 0.4 * n as f64;
        if self.tag_of(w).is_some_and(|t| t != Tag::Person) && !weak_tag {
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
        if st.after_naming > 0 {
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

    pub(super) fn place_score(
        &self,
        w: &str,
        chars: &[char],
        st: &Stat,
        m: &Measured,
    ) -> Option<Decided> {
        let len = chars.len();
        if len > 5 {
            return None;
        }
        let n = st.count;
        // 配郑州, 望瓜州: a verb glued onto a listed place that the book also
        // names on its own is the verb and the place (安德州, never written
        // without its 安, is a place of its own); so is a locative (上梁山)
        // or a movement verb (回X山, X山 a place of the book's own) before a
        // place the book names alone at least twice as often.
        // The set look-ups first: the tag costs a segmentation, and this runs
        // for every place candidate.
        if len >= 3 {
            let rest: String = chars[1..].iter().collect();
            let first = chars[0].to_string();
            let movement = self.cue(&first, CueClass::Movement) > 0;
            let alone_twice = m.count(&rest) >= 2 * st.count;
            if !self.lex.places.contains(w)
                && ((self.lex.places.contains(&rest)
                    && ((m.count(&rest) > st.count && self.vocab.tag(&first) == "v")
                        // 上|梁山: 上 "go up", a locative jieba does not tag v
                        || (alone_twice && self.chars.locative.contains(&chars[0]))))
                    // 回|X山: a movement verb before the book's own place
                    || (movement && alone_twice && self.place_suffix(&rest).is_some()))
            {
                return None;
            }
        }
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
            // X + a word that ends in the suffix character (山地丘陵, 两侧山崖);
            // not a family's village (柯家庄, though 家庄 is a word).
            let family_place = stem_chars >= 2
                && chars[stem_chars - 1] == '家'
                && self
                    .lex
                    .surnames
                    .contains_key(&stem[..stem.len() - '家'.len_utf8()]);
            if stem_chars >= 2 && !family_place {
                let last: String = chars[stem_chars - 1..stem_chars + 1].iter().collect();
                // (孤山口 is fine: 孤山 is a unit of its own.)
                let stem_is_word = self.vocab.has_word(&stem) || self.lex.places.contains(&stem);
                if !stem_is_word && (self.is_plain_word(&last) || self.is_generic(&last)) {
                    return None;
                }
            }
            // 贵县, 敝庄, 本寨: a polite or deictic word, not a stem.
            if stem_chars == 1 && self.chars.self_other.contains(&chars[0]) {
                return None;
            }
            // 燕山|山脚: a suffix does not follow itself.
            if chars[stem_chars - 1] == chars[stem_chars] {
                return None;
            }
            // 伤一个寨: no function character inside a stem; 直去县, 奔城,
            // 柴上城: no verb, and no locative after the first character,
            // unless the stem is a known word (上京, 东平).
            if stem.chars().skip(1).any(|c| self.is_function_char(c)) {
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
                        || (k > 0 && self.chars.locative.contains(&c))
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
            if !known_stem && st.left_word_cut == n && st.mov + st.after_naming + st.left_punct == 0
            {
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
                && (self.not_given.contains(&chars[0]) || self.chars.locative.contains(&chars[0]))
            {
                // 去县, 到州: a verb is no stem.
                return None;
            }
            if stem_chars == 1 {
                // 山谷, 京城, 小河: a one-character stem that makes a common word.
                // A dictionary place name is fine (锦州, and 燕山 when movement
                // cues say so), unless its stem is itself a suffix (山口, 京城).
                // A landform + a city suffix (江城, 湖州) is a city's name
                // where people move to it.
                let stem_landform = self
                    .lex
                    .place_suffixes
                    .get(&stem)
                    .map(|p| p.class == PlaceClass::Terrain);
                let city = stem_landform == Some(true)
                    && self.chars.city.contains(&chars[1])
                    && st.place_cues() >= 2;
                let ns = self.tag_of(w) == Some(Tag::Place)
                    && (stem_landform.is_none() || city)
                    && (class == PlaceClass::Admin && weight >= 3 || st.place_cues() >= 2);
                if self.vocab.has_word(w) && !ns {
                    return None;
                }
                // 宝庄, 高庄: one character and a suffix, said once, is
                // too weak unless jieba knows the place.
                if n == 1 && self.tag_of(w) != Some(Tag::Place) {
                    return None;
                }
            } else if self.is_plain_word(w) {
                return None;
            }
            evidence.push("sfx");
            if stem_chars >= 2 && st.left_bad == 0 && st.right_bad == 0 && n >= 2 {
                score += 0.1;
            }
            // A suffix and movement cues on a good share of the mentions:
            // a place even if people act there (落雁泊人马).
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
                || chars.iter().any(|c| self.is_function_char(*c))
                || self.verbish.contains(&chars[0])
                || self.verbish.contains(&chars[len - 1])
                || self.cue(&chars[0].to_string(), CueClass::Adverb) > 0
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
            if self.chars.locative.contains(&chars[len - 1])
                || self
                    .lex
                    .place_suffixes
                    .get(&chars[0].to_string())
                    .is_some_and(|p| p.weight >= 2)
            {
                return None;
            }
            // A surname first (韩归望) and person cues: a person, unless
            // movement cues outnumber them three to one.
            if self.surname(chars, w).is_some()
                && st.person_cues() > 0
                && st.place_cues() < CUE_ODDS * st.person_cues()
            {
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
        if st.after_naming > 0 {
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
}
