//! Segment: one jieba instance with jieba's default dictionary, our `dict/`
//! word lists and the user's dictionaries, shared by reference across threads.
//! It cuts text into words with part-of-speech tags; it never decides what an
//! entity is.

use crate::error::{Error, Result};
use jieba_rs::Jieba;
use std::path::Path;

/// The `dict/` files in jieba's `word freq tag` format, built into the binary.
pub const BUILTIN_DICTS: &[(&str, &str)] = &[
    ("dict/places.txt", include_str!("../dict/places.txt")),
    ("dict/factions.txt", include_str!("../dict/factions.txt")),
];

/// A word as cut from a text: borrowed, with byte offsets and jieba's tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Word<'a> {
    pub text: &'a str,
    pub pos: &'a str,
    pub start: usize,
    pub end: usize,
}

/// The shared segmenter.
#[derive(Clone)]
pub struct Segmenter {
    jieba: Jieba,
    hmm: bool,
}

impl Segmenter {
    /// jieba's default dictionary plus our `dict/` word lists.
    pub fn new(hmm: bool) -> Segmenter {
        let mut seg = Segmenter {
            jieba: Jieba::new(),
            hmm,
        };
        for (name, text) in BUILTIN_DICTS {
            seg.add_dict_text(Path::new(name), text)
                .expect("built-in dictionaries are well-formed");
        }
        seg
    }

    /// Loads a user dictionary file (`word [freq] [tag]` per line).
    pub fn load_user_dict(&mut self, path: &Path) -> Result<usize> {
        let bytes = std::fs::read(path).map_err(|source| Error::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let text = String::from_utf8(bytes).map_err(|e| Error::Invalid {
            path: path.to_path_buf(),
            message: format!(
                "dictionary is not UTF-8 (byte offset {})",
                e.utf8_error().valid_up_to()
            ),
        })?;
        self.add_dict_text(path, &text)
    }

    /// Adds dictionary lines; returns how many words were added. A line
    /// without a frequency gets jieba's suggested frequency (what Python
    /// jieba's `add_word` does), not 0, so the word is actually chosen.
    pub fn add_dict_text(&mut self, path: &Path, text: &str) -> Result<usize> {
        let entries = parse_dict(path, text)?;
        for entry in &entries {
            self.jieba.add_word(entry.word, entry.freq, entry.tag);
        }
        Ok(entries.len())
    }

    /// Adds one word (used to feed discovered names back into segmentation).
    pub fn add_word(&mut self, word: &str, freq: Option<usize>, tag: Option<&str>) {
        self.jieba.add_word(word, freq, tag);
    }

    pub fn has_word(&self, word: &str) -> bool {
        self.jieba.has_word(word)
    }

    pub fn hmm(&self) -> bool {
        self.hmm
    }

    pub fn jieba(&self) -> &Jieba {
        &self.jieba
    }

    /// Words with part-of-speech tags, whitespace dropped.
    pub fn tag<'a>(&'a self, text: &'a str) -> Vec<Word<'a>> {
        self.jieba
            .tag(text, self.hmm)
            .into_iter()
            .filter(|t| !t.word.trim().is_empty())
            .map(|t| Word {
                text: t.word,
                pos: t.tag,
                start: t.byte_start,
                end: t.byte_end,
            })
            .collect()
    }

    /// Words without tags (faster), whitespace dropped.
    pub fn cut<'a>(&self, text: &'a str) -> Vec<&'a str> {
        self.jieba
            .cut(text, self.hmm)
            .into_iter()
            .map(|t| t.word)
            .filter(|w| !w.trim().is_empty())
            .collect()
    }
}

/// One parsed dictionary line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DictEntry<'a> {
    pub word: &'a str,
    pub freq: Option<usize>,
    pub tag: Option<&'a str>,
}

/// Parses jieba user-dictionary text: `word [freq] [tag]`, `#` comments and
/// blank lines ignored. A malformed line is an error naming file and line.
pub fn parse_dict<'a>(path: &Path, text: &'a str) -> Result<Vec<DictEntry<'a>>> {
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_start_matches('\u{FEFF}').trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |message: String| Error::Dictionary {
            path: path.to_path_buf(),
            line: i + 1,
            message,
        };
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (freq, tag) = match fields.as_slice() {
            [_] => (None, None),
            [_, second] => match second.parse::<usize>() {
                Ok(f) => (Some(f), None),
                Err(_) if is_tag(second) => (None, Some(*second)),
                Err(_) => return Err(bad(format!("'{second}' is neither a frequency nor a tag"))),
            },
            [_, f, t] => {
                let f = f
                    .parse::<usize>()
                    .map_err(|_| bad(format!("frequency '{f}' is not a whole number")))?;
                if !is_tag(t) {
                    return Err(bad(format!("tag '{t}' is not a part-of-speech tag")));
                }
                (Some(f), Some(*t))
            }
            _ => {
                return Err(bad(format!(
                    "expected 'word freq tag', found {} fields",
                    fields.len()
                )))
            }
        };
        entries.push(DictEntry {
            word: fields[0],
            freq,
            tag,
        });
    }
    Ok(entries)
}

fn is_tag(s: &str) -> bool {
    !s.is_empty() && s.len() <= 8 && s.bytes().all(|b| b.is_ascii_alphabetic())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dict_lines_parse_and_errors_name_the_line() {
        let p = Path::new("my.dict");
        let e = parse_dict(p, "# comment\n完颜照立 100 nr\n赵山河\n孤山口 ns\n").unwrap();
        assert_eq!(e.len(), 3);
        assert_eq!(e[0].freq, Some(100));
        assert_eq!((e[1].freq, e[1].tag), (None, None));
        assert_eq!(e[2].tag, Some("ns"));
        let err = parse_dict(p, "好\n坏 x1 nr\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "my.dict:2: frequency 'x1' is not a whole number"
        );
    }

    #[test]
    fn a_word_without_frequency_is_still_chosen() {
        let mut seg = Segmenter::new(true);
        let text = "金扎与赵山河二将";
        assert!(!seg.cut(text).contains(&"赵山河") || seg.has_word("赵山河"));
        seg.add_dict_text(Path::new("u"), "赵山河\n金扎\n").unwrap();
        let words = seg.cut(text);
        assert!(words.contains(&"赵山河"), "{words:?}");
        assert!(words.contains(&"金扎"), "{words:?}");
    }
}
