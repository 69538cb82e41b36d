//! Lexicon: our general-knowledge word lists from `dict/` (embedded in the
//! binary, so an installed `zhnovel` needs no data files) plus the user's
//! alias files. It only parses and holds the lists; the recognizer decides
//! what they mean.
//!
//! | file                 | format                               | used for                              |
//! |----------------------|--------------------------------------|---------------------------------------|
//! | `surnames.txt`       | `surname<TAB>weight` (1–3)           | surname prior of person names         |
//! | `titles.txt`         | `title<TAB>pre\|post\|both[<TAB>family\|consort\|lady]` | title contexts; titles are not names |
//! | `generic.txt`        | one word a line                      | words that are never entities         |
//! | `place_suffixes.txt` | `suffix<TAB>class<TAB>weight`        | place names by suffix (锦州, 燕山)     |
//! | `army_suffixes.txt`  | `suffix<TAB>weight`                  | army names (契丹兵, 北平军)           |
//! | `factions.txt`       | jieba `word freq tag`                | polities and peoples (契丹, 宋)       |
//! | `places.txt`         | jieba `word freq tag`                | well-known historical places          |
//! | `armies.txt`         | jieba `word freq tag`                | well-known modern armies (八路军)     |
//! | `stopwords.txt`      | one word a line                      | frequency tables (not the recognizer) |
//! | `aliases.tsv`        | `canonical<TAB>alias<TAB>…`          | one entity under several names        |
//! | `cues.txt`           | `cue<TAB>class<TAB>weight`           | context cues (道, 率兵, 前往 …)       |
//! | `slang_armies.txt`   | one word a line                      | a side's soldiers in speech (鬼子)    |
//! | `object_cues.txt`    | one word a line                      | before a thing handled (取出, 手提)   |
//! | `faction_homographs.txt` | one word a line                  | polities that are also phrases (大明) |
//! | `place_homographs.txt` | one word a line                    | places that are also phrases (上京)   |
//!
//! Lines starting with `#` and blank lines are skipped everywhere.

use super::EntityType;
use crate::error::{Error, Result};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::OnceLock;

use crate::charset::CharSet;
use crate::dicts::{
    ALIASES, ARMIES, ARMY_SUFFIXES, CHARS, CUES, EMPIRE_WORDS, EPITHET_WORDS, FACTIONS,
    FACTION_HOMOGRAPHS, FACTION_SUFFIXES, GENERIC, GIVEN_NAME_CHARS, HONORIFICS, OBJECT_CUES,
    PLACES, PLACE_HOMOGRAPHS, PLACE_SUFFIXES, REALM_WORDS, SLANG_ARMIES, STOPWORDS, SURNAMES,
    TITLES, TRANSLIT_CHARS,
};

/// Where a title stands relative to the name it qualifies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TitlePosition {
    /// 太尉高俅
    Pre,
    /// 曹丞相, 宋公明哥哥
    Post,
    Both,
}

impl TitlePosition {
    pub fn before_name(self) -> bool {
        matches!(self, TitlePosition::Pre | TitlePosition::Both)
    }

    pub fn after_name(self) -> bool {
        matches!(self, TitlePosition::Post | TitlePosition::Both)
    }
}

/// The class of a place suffix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlaceClass {
    /// 州 府 县 城 寨 …
    Admin,
    /// 山 关 河 口 谷 …
    Terrain,
    /// 寺 庙 宫 楼 …
    Building,
}

/// A place suffix with its class and weight (3 strong, 1 weak).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlaceSuffix {
    pub class: PlaceClass,
    pub weight: u8,
}

/// What a context cue says about the word next to it (see `dict/cues.txt`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CueClass {
    /// After a person: speech (道, 笑道, 曰).
    Speech,
    /// After a person: action (率兵, 领着).
    Action,
    /// Before a person: command or object (令, 遣, 擒).
    Command,
    /// Before a name of any kind (叫做, 名叫, 人称).
    Naming,
    /// Before a place: movement (到, 前往, 攻打).
    Movement,
    /// After a place: location (城下, 一带, 之战).
    Location,
    /// An adverb that may stand between a name and its cue (也, 便, 急忙).
    Adverb,
    /// A function character that never starts or ends a name (的, 了, 与).
    Function,
    /// After a sect or society: its members (门下, 弟子, 掌门).
    Member,
    /// Between two names of one person (X即Y, X原名Y, X化名Y).
    Same,
}

impl CueClass {
    fn parse(s: &str) -> Option<CueClass> {
        Some(match s {
            "say" => CueClass::Speech,
            "act" => CueClass::Action,
            "cmd" => CueClass::Command,
            "nam" => CueClass::Naming,
            "mov" => CueClass::Movement,
            "loc" => CueClass::Location,
            "adv" => CueClass::Adverb,
            "bnd" => CueClass::Function,
            "mem" => CueClass::Member,
            "same" => CueClass::Same,
            _ => return None,
        })
    }
}

/// A cue with its strength (1 weak, 3 strong).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cue {
    pub class: CueClass,
    pub weight: u8,
}

/// Named classes of characters (dict/chars.tsv), one per concept, read
/// once: what the recognizer and the catalog ask of single characters.
#[derive(Debug)]
pub struct CharClasses {
    pub locative: CharSet,
    pub position_tail: CharSet,
    pub settlement: CharSet,
    pub numeral: CharSet,
    pub demonstrative: CharSet,
    pub self_other: CharSet,
    pub birth_order: CharSet,
    pub not_before_da: CharSet,
    pub polity_after: CharSet,
    pub polity_before: CharSet,
    pub polity_before_weak: CharSet,
    pub pronoun: CharSet,
    pub group: CharSet,
    /// Classical personal pronouns (汝 尔 吾 伊), also rare surnames.
    pub pronoun_classical: CharSet,
    /// Before a noun, with `group`, many of a kind (各X, 那些X).
    pub plural_before: CharSet,
    /// After a noun, its plural (X们).
    pub plural_after: CharSet,
    pub side_slang: CharSet,
    pub name_word: CharSet,
    pub clan: CharSet,
    /// After a surname and 家, a family's village (柯家堡).
    pub village: CharSet,
    pub magnitude: CharSet,
    pub head_count: CharSet,
    /// Counters of people after a numeral (二人, 三位).
    pub person_counter: CharSet,
    /// Sibling characters (兄弟, 姐妹 after a family: several people).
    pub sibling: CharSet,
    pub unit_echelon: CharSet,
    pub given_ok: CharSet,
    pub state_short: CharSet,
    /// Suffixes of a town or city (州 城 市): after a landform (江城, 湖州)
    /// still a place name when the book moves people there.
    pub city: CharSet,
    /// The four directions.
    pub direction: CharSet,
    /// Words for foreign peoples (番 夷 蛮 戎): after a direction a faction.
    pub exonym: CharSet,
    /// Before a surname, a form of address (老韩, 小刘).
    pub address_prefix: CharSet,
    /// Before one character, a nickname (阿彪).
    pub nickname_prefix: CharSet,
    /// Kinship terms: after 阿 a relative (阿叔), not a nickname.
    pub kin: CharSet,
    /// After a two-character name, a named battle array (X阵): a place.
    pub array: CharSet,
    /// Parts and kinds of a house (楼 厅 堂 房 …): after one character that
    /// is no surname, no named place (书房, 花厅).
    pub house_part: CharSet,
    /// Function characters a wuxia given name may hold after the surname
    /// (X不Y, X我Y, X问Y).
    pub name_function: CharSet,
    /// Resultative complements of a verb (开 起 住 齐 成 完): a
    /// two-character army stem ending with one is a verb phrase (布开人马).
    pub complement: CharSet,
    /// Aspect particles (了 着 过): the character before one is a verb
    /// (韩爵|立了), not the end of a name.
    pub aspect: CharSet,
}

impl CharClasses {
    /// The classes of dict/chars.tsv (parsed on first use).
    pub fn builtin() -> &'static CharClasses {
        static CLASSES: OnceLock<CharClasses> = OnceLock::new();
        CLASSES.get_or_init(|| {
            CharClasses::parse(Path::new("dict/chars.tsv"), CHARS)
                .expect("dict/chars.tsv is well-formed")
        })
    }

    /// Reads `class<TAB>characters<TAB>note` lines; every class must be there.
    pub fn parse(path: &Path, text: &str) -> Result<CharClasses> {
        let mut classes: HashMap<&str, CharSet> = HashMap::new();
        for (line_no, line) in lines(text) {
            let mut fields = line.split('\t');
            match (fields.next(), fields.next()) {
                (Some(class), Some(chars)) if !chars.is_empty() => {
                    classes.insert(class.trim(), chars.trim().chars().collect());
                }
                _ => return Err(dict_error(path, line_no, "expected class<TAB>characters")),
            }
        }
        let mut take = |name: &str| {
            classes.remove(name).ok_or_else(|| Error::Dictionary {
                path: path.to_path_buf(),
                line: 0,
                message: format!("no `{name}` class"),
            })
        };
        Ok(CharClasses {
            locative: take("locative")?,
            position_tail: take("position_tail")?,
            settlement: take("settlement")?,
            numeral: take("numeral")?,
            demonstrative: take("demonstrative")?,
            self_other: take("self_other")?,
            birth_order: take("birth_order")?,
            not_before_da: take("not_before_da")?,
            polity_after: take("polity_after")?,
            polity_before: take("polity_before")?,
            polity_before_weak: take("polity_before_weak")?,
            pronoun: take("pronoun")?,
            group: take("group")?,
            pronoun_classical: take("pronoun_classical")?,
            plural_before: take("plural_before")?,
            plural_after: take("plural_after")?,
            side_slang: take("side_slang")?,
            name_word: take("name_word")?,
            clan: take("clan")?,
            village: take("village")?,
            magnitude: take("magnitude")?,
            head_count: take("head_count")?,
            person_counter: take("person_counter")?,
            sibling: take("sibling")?,
            unit_echelon: take("unit_echelon")?,
            given_ok: take("given_ok")?,
            state_short: take("state_short")?,
            city: take("city")?,
            direction: take("direction")?,
            exonym: take("exonym")?,
            address_prefix: take("address_prefix")?,
            nickname_prefix: take("nickname_prefix")?,
            kin: take("kin")?,
            array: take("array")?,
            house_part: take("house_part")?,
            name_function: take("name_function")?,
            complement: take("complement")?,
            aspect: take("aspect")?,
        })
    }
}

/// The word lists the recognizer and the frequency tables use.
#[derive(Debug, Clone, Default)]
pub struct Lexicon {
    stopwords: HashSet<String>,
    /// (canonical, aliases) pairs from dict/aliases.tsv and user files.
    pub aliases: Vec<(String, Vec<String>)>,
    /// How many of `aliases` (the first ones) come from the built-in list:
    /// those apply only to books that name the canonical entity.
    pub builtin_aliases: usize,
    /// Surname → weight 1–3 (single and compound).
    pub surnames: HashMap<String, u8>,
    pub titles: HashMap<String, TitlePosition>,
    /// Titles marked `family`: they name one member of a house (夫人,
    /// 公子, 小姐), often not the man its chapters name most.
    pub family_titles: HashSet<String>,
    /// Titles marked `consort` (also family titles): a ruler's wife, who
    /// holds them in turn (妃, then 后, then 太后).
    pub consort_titles: HashSet<String>,
    /// Titles marked `lady` (also family titles): the lady of a house, one
    /// woman at a time (夫人, 太太), unlike a daughter or son (小姐, 公子).
    pub lady_titles: HashSet<String>,
    /// Titles marked `religious`: an adept's or immortal's, after the
    /// sobriquet the adept goes by (道人, 真人, 禅师: 青霞真人).
    pub religious_titles: HashSet<String>,
    /// Titles marked `foreign`: ranks of a foreign army only (少佐, 军曹 of
    /// the Japanese army), written after a foreign family name (X少佐).
    pub foreign_ranks: HashSet<String>,
    /// Words that are never entities.
    pub generic: HashSet<String>,
    /// Words after a name that make it stand for a realm (X天下, X营).
    pub realm_words: Vec<String>,
    /// Words that end an empire's or dynasty's name (大X帝国).
    pub empire_words: Vec<String>,
    /// Words that introduce a person's epithet (人称X, 绰号X).
    pub epithet_words: Vec<String>,
    /// Words for a side's soldiers in common speech (鬼子, 鞑子): generic,
    /// but a book's army when it uses one as much as its named armies.
    pub slang_armies: Vec<String>,
    /// Words right before a thing held or handled, never a person (取出,
    /// 手提, 祭起, 一柄).
    pub object_cues: Vec<String>,
    /// What follows a surname to address one person (爷, 兄, 大人), besides
    /// the `post` and `both` titles.
    pub honorifics: HashSet<String>,
    /// The generic words that address or count persons (大哥, 先生, 二人).
    pub address: HashSet<String>,
    pub place_suffixes: HashMap<String, PlaceSuffix>,
    /// Army suffix → weight 1–3.
    pub army_suffixes: HashMap<String, u8>,
    /// Faction suffix → weight 1–3 (派, 帮, 会: sects, gangs, societies).
    pub faction_suffixes: HashMap<String, u8>,
    /// Polities and peoples (multi-character names and single-character ones).
    pub factions: HashSet<String>,
    /// Listed polities that are also ordinary phrases (天色大明, 明朝
    /// "tomorrow"): factions only where the book reads them as polities.
    pub faction_homographs: HashSet<String>,
    /// Well-known named armies (dict/armies.txt: 八路军, 湘军).
    pub armies: HashSet<String>,
    /// Well-known historical places.
    pub places: HashSet<String>,
    /// Listed places that are also ordinary phrases (上京 "go up to the
    /// capital", 河内 "in the river"): places only where the book reads
    /// them so.
    pub place_homographs: HashSet<String>,
    /// Context cues: a word may carry several classes (到: movement before a
    /// place, action after a person).
    pub cues: HashMap<String, Vec<Cue>>,
    /// How often each character appears in given names (`dict/given_name_chars.tsv`).
    pub given_name_chars: HashMap<char, u32>,
    /// How much more often each character is used in transliterated
    /// foreign names than in words (`dict/translit_chars.tsv`, log-odds).
    pub translit_chars: HashMap<char, f32>,
    /// The user's names (`--names`, tagged `--dict` words): always entities.
    pub user_names: Vec<UserName>,
    /// The user's not-names (`--not-names`): never entities nor aliases.
    pub not_names: HashSet<String>,
}

/// A name the user gives: always an entity of that type, named so, with
/// these aliases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserName {
    pub name: String,
    pub kind: EntityType,
    pub aliases: Vec<String>,
}

impl Lexicon {
    /// The lists built into the binary from `dict/`.
    pub fn builtin() -> Lexicon {
        Lexicon::from_texts(&BuiltinTexts::default())
            .expect("built-in dictionaries are well-formed")
    }

    /// An empty lexicon (no lists at all); for tests and for callers that
    /// want to bring every list themselves.
    pub fn empty() -> Lexicon {
        Lexicon::default()
    }

    fn from_texts(t: &BuiltinTexts) -> Result<Lexicon> {
        let mut lex = Lexicon::default();
        lex.add_surnames(Path::new("dict/surnames.txt"), t.surnames)?;
        lex.add_titles(Path::new("dict/titles.txt"), t.titles)?;
        lex.add_generic(t.generic);
        lex.add_place_suffixes(Path::new("dict/place_suffixes.txt"), t.place_suffixes)?;
        lex.add_army_suffixes(Path::new("dict/army_suffixes.txt"), t.army_suffixes)?;
        lex.add_faction_suffixes(Path::new("dict/faction_suffixes.txt"), t.faction_suffixes)?;
        lex.factions.extend(jieba_words(t.factions));
        lex.faction_homographs.extend(words(FACTION_HOMOGRAPHS));
        lex.armies.extend(jieba_words(t.armies));
        lex.places.extend(jieba_words(t.places));
        lex.place_homographs.extend(words(PLACE_HOMOGRAPHS));
        lex.stopwords.extend(words(t.stopwords));
        lex.add_aliases_text(Path::new("dict/aliases.tsv"), t.aliases)?;
        lex.builtin_aliases = lex.aliases.len();
        lex.add_cues(Path::new("dict/cues.txt"), t.cues)?;
        lex.honorifics.extend(words(t.honorifics));
        lex.realm_words.extend(words(REALM_WORDS));
        lex.empire_words.extend(words(EMPIRE_WORDS));
        lex.epithet_words.extend(words(EPITHET_WORDS));
        lex.slang_armies.extend(words(SLANG_ARMIES));
        lex.object_cues.extend(words(OBJECT_CUES));
        lex.given_name_chars = char_table(
            Path::new("dict/given_name_chars.tsv"),
            t.given_name_chars,
            "expected char<TAB>count",
        )?;
        lex.translit_chars = char_table(
            Path::new("dict/translit_chars.tsv"),
            TRANSLIT_CHARS,
            "expected char<TAB>score",
        )?;
        Ok(lex)
    }

    /// Words left out of frequency tables unless `--all-words`.
    pub fn stopwords(&self) -> &HashSet<String> {
        &self.stopwords
    }

    /// Adds a names file: `name<TAB>type[<TAB>alias|alias…]` lines (`#`
    /// comments), the format `zhnovel discover --format names` writes.
    pub fn add_names_file(&mut self, path: &Path) -> Result<()> {
        let text = crate::input::read_utf8(path, "names file")?;
        self.add_names_text(path, &text)
    }

    /// Adds names lines; `path` names the source in errors.
    pub fn add_names_text(&mut self, path: &Path, text: &str) -> Result<()> {
        for (line_no, line) in lines(text) {
            let bad = |message: &str| dict_error(path, line_no, message);
            let fields: Vec<&str> = line.split('\t').map(str::trim).collect();
            let (name, kind) = match fields.as_slice() {
                [name, kind, ..] if !name.is_empty() => (*name, *kind),
                _ => return Err(bad("expected name<TAB>type[<TAB>alias|alias]")),
            };
            let kind = EntityType::parse(kind).ok_or_else(|| {
                bad(&format!(
                    "unknown type '{kind}' (person, place, army, faction)"
                ))
            })?;
            let aliases = fields
                .get(2)
                .map(|a| {
                    a.split('|')
                        .map(str::trim)
                        .filter(|a| !a.is_empty() && *a != name)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default();
            self.user_names.push(UserName {
                name: name.to_string(),
                kind,
                aliases,
            });
        }
        Ok(())
    }

    /// Adds the words of a jieba user dictionary tagged as names: `nr`
    /// (nrfg, nrt) persons, `ns` places, `nt` factions.
    pub fn add_dict_names(&mut self, path: &Path) -> Result<()> {
        let text = crate::input::read_utf8(path, "dictionary")?;
        for e in crate::segment::parse_dict(path, &text)? {
            let kind = match e.tag {
                Some("nr" | "nrfg" | "nrt") => EntityType::Person,
                Some("ns") => EntityType::Place,
                Some("nt") => EntityType::Faction,
                _ => continue,
            };
            self.user_names.push(UserName {
                name: e.word.to_string(),
                kind,
                aliases: Vec::new(),
            });
        }
        Ok(())
    }

    /// Adds a not-names file: one word a line, `#` comments.
    pub fn add_not_names_file(&mut self, path: &Path) -> Result<()> {
        let text = crate::input::read_utf8(path, "not-names file")?;
        self.not_names.extend(words(&text));
        Ok(())
    }

    /// Adds a user alias file: canonical name, then aliases, tab-separated.
    pub fn add_aliases_file(&mut self, path: &Path) -> Result<()> {
        let bytes = std::fs::read(path).map_err(|source| Error::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let text = String::from_utf8(bytes).map_err(|e| Error::Invalid {
            path: path.to_path_buf(),
            message: format!(
                "alias file is not UTF-8 (byte offset {})",
                e.utf8_error().valid_up_to()
            ),
        })?;
        self.add_aliases_text(path, &text)
    }

    /// Adds alias lines (`canonical<TAB>alias<TAB>…`); `path` names the source in errors.
    pub fn add_aliases_text(&mut self, path: &Path, text: &str) -> Result<()> {
        for (line_no, line) in lines(text) {
            let fields: Vec<&str> = line
                .split('\t')
                .map(str::trim)
                .filter(|f| !f.is_empty())
                .collect();
            if fields.len() < 2 {
                return Err(dict_error(
                    path,
                    line_no,
                    "expected a canonical name and at least one alias, tab-separated",
                ));
            }
            self.aliases.push((
                fields[0].to_string(),
                fields[1..].iter().map(|s| s.to_string()).collect(),
            ));
        }
        Ok(())
    }

    /// Adds generic words (one a line). Words under a `# ---` section
    /// heading that mentions persons, kinship, titles, pronouns or address
    /// are also forms of address (王大哥 is not a name, 赵山河 is).
    pub fn add_generic(&mut self, text: &str) {
        let mut address = false;
        for line in text.lines() {
            let t = line.trim();
            if let Some(heading) = t.strip_prefix("# ---") {
                address = ["person", "kinship", "title", "pronoun", "address"]
                    .iter()
                    .any(|k| heading.contains(k));
                continue;
            }
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let w = t.split_whitespace().next().unwrap_or(t).to_string();
            if address {
                self.address.insert(w.clone());
            }
            self.generic.insert(w);
        }
    }

    /// Adds `surname<TAB>weight` lines.
    pub fn add_surnames(&mut self, path: &Path, text: &str) -> Result<()> {
        for (line_no, line) in lines(text) {
            let (word, rest) = split_tab(line);
            let weight = parse_weight(path, line_no, rest)?;
            self.surnames.insert(word.to_string(), weight);
        }
        Ok(())
    }

    /// Adds `title<TAB>pre|post|both[<TAB>family|consort|lady|religious]` lines.
    pub fn add_titles(&mut self, path: &Path, text: &str) -> Result<()> {
        for (line_no, line) in lines(text) {
            let (word, rest) = split_tab(line);
            let (position, marks) = split_tab(rest);
            match marks.trim() {
                "" => {}
                "family" => {
                    self.family_titles.insert(word.to_string());
                }
                "consort" => {
                    self.family_titles.insert(word.to_string());
                    self.consort_titles.insert(word.to_string());
                }
                "lady" => {
                    self.family_titles.insert(word.to_string());
                    self.lady_titles.insert(word.to_string());
                }
                "religious" => {
                    self.religious_titles.insert(word.to_string());
                }
                "foreign" => {
                    self.foreign_ranks.insert(word.to_string());
                }
                other => {
                    return Err(dict_error(
                        path,
                        line_no,
                        &format!(
                            "a title's third column must be family, consort, lady, religious, foreign or empty, not '{other}'"
                        ),
                    ))
                }
            }
            let pos = match position.trim() {
                "pre" => TitlePosition::Pre,
                "post" => TitlePosition::Post,
                "both" | "" => TitlePosition::Both,
                other => {
                    return Err(dict_error(
                        path,
                        line_no,
                        &format!("title position must be pre, post or both, not '{other}'"),
                    ))
                }
            };
            self.titles.insert(word.to_string(), pos);
        }
        Ok(())
    }

    /// Adds `suffix<TAB>class<TAB>weight` lines.
    pub fn add_place_suffixes(&mut self, path: &Path, text: &str) -> Result<()> {
        for (line_no, line) in lines(text) {
            let fields: Vec<&str> = line.split('\t').map(str::trim).collect();
            let [word, class, weight] = fields.as_slice() else {
                return Err(dict_error(
                    path,
                    line_no,
                    "expected suffix<TAB>class<TAB>weight",
                ));
            };
            let class = match *class {
                "admin" => PlaceClass::Admin,
                "terrain" => PlaceClass::Terrain,
                "building" => PlaceClass::Building,
                other => {
                    return Err(dict_error(
                        path,
                        line_no,
                        &format!("place class must be admin, terrain or building, not '{other}'"),
                    ))
                }
            };
            let weight = parse_weight(path, line_no, weight)?;
            self.place_suffixes
                .insert(word.to_string(), PlaceSuffix { class, weight });
        }
        Ok(())
    }

    /// Adds `suffix<TAB>weight` lines.
    pub fn add_army_suffixes(&mut self, path: &Path, text: &str) -> Result<()> {
        add_weighted(&mut self.army_suffixes, path, text)
    }

    /// Adds `suffix<TAB>weight` lines of faction suffixes.
    pub fn add_faction_suffixes(&mut self, path: &Path, text: &str) -> Result<()> {
        add_weighted(&mut self.faction_suffixes, path, text)
    }

    /// Adds `cue<TAB>class<TAB>weight` lines.
    pub fn add_cues(&mut self, path: &Path, text: &str) -> Result<()> {
        for (line_no, line) in lines(text) {
            let bad = |message: &str| dict_error(path, line_no, message);
            let fields: Vec<&str> = line.split('\t').map(str::trim).collect();
            let [word, class, weight] = fields.as_slice() else {
                return Err(bad("expected cue<TAB>class<TAB>weight"));
            };
            let class = CueClass::parse(class).ok_or_else(|| {
                bad(&format!(
                    "cue class must be say, act, cmd, nam, mov, loc, adv, bnd or mem, not '{class}'"
                ))
            })?;
            let weight = parse_weight(path, line_no, weight)?;
            let entry = self.cues.entry(word.to_string()).or_default();
            entry.retain(|c| c.class != class);
            entry.push(Cue { class, weight });
        }
        Ok(())
    }

    /// The weight (1–3) of `word` as a cue of `class`, or 0.
    pub fn cue(&self, word: &str, class: CueClass) -> u8 {
        self.cues
            .get(word)
            .and_then(|cs| cs.iter().find(|c| c.class == class))
            .map_or(0, |c| c.weight)
    }
}

/// The built-in file texts (a struct so tests can swap one).
struct BuiltinTexts {
    surnames: &'static str,
    titles: &'static str,
    generic: &'static str,
    place_suffixes: &'static str,
    army_suffixes: &'static str,
    factions: &'static str,
    armies: &'static str,
    places: &'static str,
    stopwords: &'static str,
    aliases: &'static str,
    cues: &'static str,
    honorifics: &'static str,
    faction_suffixes: &'static str,
    given_name_chars: &'static str,
}

impl Default for BuiltinTexts {
    fn default() -> Self {
        BuiltinTexts {
            surnames: SURNAMES,
            titles: TITLES,
            generic: GENERIC,
            place_suffixes: PLACE_SUFFIXES,
            army_suffixes: ARMY_SUFFIXES,
            factions: FACTIONS,
            armies: ARMIES,
            places: PLACES,
            stopwords: STOPWORDS,
            aliases: ALIASES,
            cues: CUES,
            honorifics: HONORIFICS,
            faction_suffixes: FACTION_SUFFIXES,
            given_name_chars: GIVEN_NAME_CHARS,
        }
    }
}

/// Non-blank, non-comment lines with their 1-based numbers, BOM and
/// trailing whitespace removed.
/// Adds `word<TAB>weight` lines to a map.
fn add_weighted(map: &mut HashMap<String, u8>, path: &Path, text: &str) -> Result<()> {
    for (line_no, line) in lines(text) {
        let (word, rest) = split_tab(line);
        let weight = parse_weight(path, line_no, rest)?;
        map.insert(word.to_string(), weight);
    }
    Ok(())
}

fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(i, line)| {
        let line = line.trim_start_matches('\u{FEFF}').trim_end();
        let trimmed = line.trim_start();
        (!trimmed.is_empty() && !trimmed.starts_with('#')).then_some((i + 1, trimmed))
    })
}

/// One word a line.
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    lines(text).map(|(_, l)| l.split_whitespace().next().unwrap_or(l).to_string())
}

/// The words of a jieba `word freq tag` list.
fn jieba_words(text: &str) -> impl Iterator<Item = String> + '_ {
    lines(text).filter_map(|(_, l)| l.split_whitespace().next().map(str::to_string))
}

/// A table of `char<TAB>value` lines.
fn char_table<T: std::str::FromStr>(
    path: &Path,
    text: &str,
    expected: &str,
) -> Result<HashMap<char, T>> {
    let mut table = HashMap::new();
    for (line_no, line) in lines(text) {
        let (c, value) = split_tab(line);
        let mut chars = c.chars();
        match (chars.next(), chars.next(), value.trim().parse::<T>()) {
            (Some(c), None, Ok(v)) => {
                table.insert(c, v);
            }
            _ => return Err(dict_error(path, line_no, expected)),
        }
    }
    Ok(table)
}

fn split_tab(line: &str) -> (&str, &str) {
    match line.split_once('\t') {
        Some((w, rest)) => (w.trim(), rest.trim()),
        None => match line.split_once(char::is_whitespace) {
            Some((w, rest)) => (w.trim(), rest.trim()),
            None => (line.trim(), ""),
        },
    }
}

fn parse_weight(path: &Path, line: usize, s: &str) -> Result<u8> {
    match s.trim().parse::<u8>() {
        Ok(w @ 1..=3) => Ok(w),
        _ => Err(dict_error(
            path,
            line,
            &format!("weight must be 1, 2 or 3, not '{}'", s.trim()),
        )),
    }
}

fn dict_error(path: &Path, line: usize, message: &str) -> Error {
    Error::Dictionary {
        path: path.to_path_buf(),
        line,
        message: message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn char_classes_load_from_dict_with_every_class() {
        let c = CharClasses::builtin();
        assert!(c.locative.contains(&'下') && !c.locative.contains(&'王'));
        assert!(c.polity_before.contains(&'伐') && !c.polity_before.contains(&'叛'));
        assert!(c.polity_before_weak.contains(&'叛'));
        assert!(c.numeral.contains(&'廿') && c.settlement.contains(&'寨'));
    }

    #[test]
    fn char_classes_name_a_missing_class_and_a_bad_line() {
        let err = CharClasses::parse(Path::new("c.tsv"), "locative\t上下\n")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("c.tsv") && err.contains("position_tail"),
            "{err}"
        );
        let err = CharClasses::parse(Path::new("c.tsv"), "locative\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("c.tsv:1"), "{err}");
    }

    #[test]
    fn builtin_lists_load() {
        let lex = Lexicon::builtin();
        assert_eq!(lex.surnames.get("耶律"), Some(&3));
        assert!(lex.surnames.contains_key("王"));
        assert!(lex.titles.contains_key("将军"));
        assert!(lex.generic.contains("二人"));
        assert_eq!(lex.place_suffixes["州"].class, PlaceClass::Admin);
        assert!(lex.army_suffixes.contains_key("军"));
        assert!(lex.factions.contains("契丹"));
        assert_eq!(lex.cue("道", CueClass::Speech), 3);
        assert!(lex.cue("到", CueClass::Movement) > 0);
    }

    #[test]
    fn titles_read_their_position_and_family_mark() {
        let mut lex = Lexicon::empty();
        let p = Path::new("t.txt");
        lex.add_titles(
            p,
            "丞相\tboth\n夫人\tpost\tlady\n皇后\tpost\tconsort\n真人\tpost\treligious\n",
        )
        .unwrap();
        assert_eq!(lex.titles.get("夫人"), Some(&TitlePosition::Post));
        assert!(lex.family_titles.contains("夫人") && !lex.family_titles.contains("丞相"));
        assert!(lex.religious_titles.contains("真人") && !lex.religious_titles.contains("夫人"));
        assert!(!lex.family_titles.contains("真人"));
        assert!(lex.family_titles.contains("皇后") && lex.consort_titles.contains("皇后"));
        assert!(!lex.consort_titles.contains("夫人"));
        assert!(lex.family_titles.contains("夫人") && lex.lady_titles.contains("夫人"));
        assert!(!lex.lady_titles.contains("皇后"));
        let err = lex
            .add_titles(p, "丞相\tboth\n夫人\tpost\twife\n")
            .unwrap_err();
        assert!(matches!(err, Error::Dictionary { line: 2, .. }), "{err}");
        let builtin = Lexicon::builtin();
        assert!(builtin.family_titles.contains("公子") && !builtin.family_titles.contains("元帅"));
    }

    #[test]
    fn user_alias_file_is_read_and_errors_name_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("a.tsv");
        std::fs::write(&good, "# mine\n刘备\t玄德\t刘玄德\n").unwrap();
        let mut lex = Lexicon::empty();
        lex.add_aliases_file(&good).unwrap();
        assert_eq!(
            lex.aliases,
            vec![(
                "刘备".to_string(),
                vec!["玄德".to_string(), "刘玄德".to_string()]
            )]
        );
        let bad = dir.path().join("b.tsv");
        std::fs::write(&bad, "刘备\t玄德\n\n关羽\n").unwrap();
        let err = lex.add_aliases_file(&bad).unwrap_err();
        assert!(matches!(err, Error::Dictionary { line: 3, .. }), "{err}");
        let missing = lex
            .add_aliases_file(&dir.path().join("none.tsv"))
            .unwrap_err();
        assert!(matches!(missing, Error::Read { .. }));
    }

    #[test]
    fn malformed_weights_and_classes_are_errors() {
        let mut lex = Lexicon::empty();
        let p = Path::new("s.txt");
        assert!(matches!(
            lex.add_surnames(p, "王\t3\n李\t9\n"),
            Err(Error::Dictionary { line: 2, .. })
        ));
        assert!(lex.add_cues(p, "道\tsing\t3\n").is_err());
        assert!(lex.add_place_suffixes(p, "州\tadmin\n").is_err());
        assert!(lex.add_titles(p, "将军\taround\n").is_err());
    }
}
