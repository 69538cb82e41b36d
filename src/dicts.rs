//! The built-in dictionaries of `dict/`, compiled into the binary, each
//! included once here and read by the stage that uses it (dict/README.md
//! says where every file comes from and under which licence). A leaf
//! module.

/// Surnames with weights (dict/surnames.txt).
pub const SURNAMES: &str = include_str!("../dict/surnames.txt");
/// Titles and ranks, with their position beside a name.
pub const TITLES: &str = include_str!("../dict/titles.txt");
/// Generic nouns that are never names on their own.
pub const GENERIC: &str = include_str!("../dict/generic.txt");
pub const PLACE_SUFFIXES: &str = include_str!("../dict/place_suffixes.txt");
pub const ARMY_SUFFIXES: &str = include_str!("../dict/army_suffixes.txt");
pub const FACTION_SUFFIXES: &str = include_str!("../dict/faction_suffixes.txt");
/// Dynasties, states and peoples (jieba `word freq nt` lines).
pub const FACTIONS: &str = include_str!("../dict/factions.txt");
/// Well-known named armies of modern history (jieba `word freq nt` lines).
pub const ARMIES: &str = include_str!("../dict/armies.txt");
/// Well-known historical places (jieba `word freq ns` lines).
pub const PLACES: &str = include_str!("../dict/places.txt");
pub const STOPWORDS: &str = include_str!("../dict/stopwords.txt");
pub const ALIASES: &str = include_str!("../dict/aliases.tsv");
/// Context cues of the recognizer, by class.
pub const CUES: &str = include_str!("../dict/cues.txt");
pub const HONORIFICS: &str = include_str!("../dict/honorifics.txt");
pub const GIVEN_NAME_CHARS: &str = include_str!("../dict/given_name_chars.tsv");
/// Characters of transliterated foreign names, with their log-odds.
pub const TRANSLIT_CHARS: &str = include_str!("../dict/translit_chars.tsv");
/// Words right before a thing held or handled (取出, 手提, 一柄).
pub const OBJECT_CUES: &str = include_str!("../dict/object_cues.txt");
/// Words for a side's soldiers in common speech (鬼子, 鞑子).
pub const SLANG_ARMIES: &str = include_str!("../dict/slang_armies.txt");
/// Named character classes (locatives, numerals, polity contexts …).
pub const CHARS: &str = include_str!("../dict/chars.tsv");
/// Words that make a ruler's name stand for his realm (X天下, X营).
pub const REALM_WORDS: &str = include_str!("../dict/realm_words.txt");
/// Words that end an empire's or dynasty's name (大X帝国, 大X皇朝).
pub const EMPIRE_WORDS: &str = include_str!("../dict/empire_words.txt");
/// Listed polities that are also ordinary phrases (天色大明, 明朝 "tomorrow").
pub const FACTION_HOMOGRAPHS: &str = include_str!("../dict/faction_homographs.txt");
/// Listed places that are also ordinary phrases (上京 "go up to the capital").
pub const PLACE_HOMOGRAPHS: &str = include_str!("../dict/place_homographs.txt");
/// Words that introduce a person's epithet (人称X, 绰号X).
pub const EPITHET_WORDS: &str = include_str!("../dict/epithet_words.txt");
/// Cue words of the relations (commands, member_of, fights, at …).
pub const RELATIONS: &str = include_str!("../dict/relations.txt");

/// The files that are also jieba user dictionaries, by name.
pub const JIEBA_DICTS: &[(&str, &str)] = &[
    ("dict/places.txt", PLACES),
    ("dict/factions.txt", FACTIONS),
    ("dict/armies.txt", ARMIES),
];
