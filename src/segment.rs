//! Segment: one jieba instance with jieba's default dictionary, our `dict/`
//! word lists and the user's dictionaries, shared by reference across threads.
//! It cuts text into words with part-of-speech tags; it never decides what an
//! entity is.

use crate::dicts::JIEBA_DICTS;
use crate::error::{Error, Result};
use jieba_rs::Jieba;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// A word as cut from a text: borrowed, with byte offsets and jieba's tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Word<'a> {
    pub text: &'a str,
    pub pos: &'a str,
    pub start: usize,
    pub end: usize,
}

/// jieba's default dictionary, loaded once by whoever builds the engines
/// (its load is most of the start-up) and shared by `Arc`: every
/// `Segmenter` starts from a copy of it (a copy costs a tenth of a load),
/// and the recognizer reads it as a vocabulary of common words (their
/// frequencies and tags).
#[derive(Clone)]
pub struct Vocabulary {
    jieba: Arc<Jieba>,
    /// Tells vocabularies apart (a cache of look-ups is only valid for one).
    id: u64,
}

impl Vocabulary {
    /// Loads jieba's default dictionary.
    pub fn load() -> Vocabulary {
        static NEXT_ID: AtomicU64 = AtomicU64::new(0);
        Vocabulary {
            jieba: Arc::new(Jieba::new()),
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        }
    }

    pub fn id(&self) -> u64 {
        self.id
    }

    pub fn has_word(&self, word: &str) -> bool {
        self.jieba.has_word(word)
    }

    /// jieba's suggested frequency of a word (its count, for a dictionary word).
    pub fn suggest_freq(&self, word: &str) -> usize {
        self.jieba.suggest_freq(word)
    }

    /// How jieba's cut of `text` (dictionary only, no HMM) reads the span
    /// at byte offsets `start..end`: `Some(rest)` when a word starts at
    /// `start` and words end at `end` (`rest` empty: the span is a word or
    /// a row of whole words) or one word holds the span and goes on past
    /// `end` (`rest`: what it goes on with, 府 of 苏州府); `None` when a
    /// word crosses `start`, or one from inside the span crosses `end`.
    pub fn read_from<'t>(&self, text: &'t str, start: usize, end: usize) -> Option<&'t str> {
        let mut at = 0;
        let mut started = false;
        for word in self.jieba.cut(text, false) {
            let next = at + word.word.len();
            if at == start {
                started = true;
            }
            if started && next >= end {
                // A word from inside the span that goes on past its end
                // cuts it (和尚|原来 for 和尚原).
                return (at == start || next == end).then(|| &text[end..next]);
            }
            if at < start && next > start {
                return None;
            }
            at = next;
        }
        None
    }

    /// jieba's tag of a dictionary word, coarsely (`None` for no word).
    pub fn word_tag(&self, word: &str) -> Option<WordTag> {
        if !self.has_word(word) {
            return None;
        }
        Some(match self.tag(word).as_str() {
            "nr" | "nrt" | "nrfg" => WordTag::Person,
            "ns" => WordTag::Place,
            "nz" | "nt" => WordTag::Proper,
            _ => WordTag::Other,
        })
    }

    /// jieba's tag of a word cut alone (without HMM): its dictionary tag
    /// when the word stays whole, else empty.
    pub fn tag(&self, word: &str) -> String {
        match self.jieba.tag(word, false).as_slice() {
            [t] if t.word == word => t.tag.to_string(),
            _ => String::new(),
        }
    }
}

/// jieba's tag of a dictionary word, coarsely: a person's name (nr, nrt,
/// nrfg), a place (ns), another proper noun (nz, nt), or anything else.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordTag {
    Person,
    Place,
    Proper,
    Other,
}

/// Loads jieba's part-of-speech tables, which the first tagging call would
/// otherwise load (about 20 ms), so that it can be done while the
/// dictionary loads on another thread.
pub fn warm_up_tagger() {
    let _ = Jieba::empty().tag("吕布", true);
}

/// The shared segmenter.
#[derive(Clone)]
pub struct Segmenter {
    jieba: Jieba,
    hmm: bool,
}

impl Segmenter {
    /// jieba's default dictionary (loaded here) plus our `dict/` word lists.
    pub fn new(hmm: bool) -> Segmenter {
        Segmenter::with_vocabulary(&Vocabulary::load(), hmm)
    }

    /// A copy of a loaded default dictionary plus our `dict/` word lists.
    pub fn with_vocabulary(vocabulary: &Vocabulary, hmm: bool) -> Segmenter {
        let mut seg = Segmenter {
            jieba: Jieba::clone(&vocabulary.jieba),
            hmm,
        };
        for (name, text) in JIEBA_DICTS {
            let entries =
                parse_dict(Path::new(name), text).expect("built-in dictionaries are well-formed");
            for e in entries {
                // Only words jieba lacks: re-adding 元 or 河南 would replace
                // jieba's own frequency and tag and change how it cuts prose.
                if !seg.jieba.has_word(e.word) {
                    seg.jieba.add_word(e.word, e.freq, e.tag);
                }
            }
        }
        seg
    }

    /// Loads a user dictionary file (`word [freq] [tag]` per line).
    pub fn load_user_dict(&mut self, path: &Path) -> Result<usize> {
        let text = crate::input::read_utf8(path, "dictionary")?;
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

    /// Cuts `text` into the words `tag` would give, without tags (about
    /// twice as fast): calls `f(word, byte_start, byte_end)` for each word
    /// in order, whitespace dropped.
    pub fn for_each_word<'a>(&self, text: &'a str, f: impl FnMut(&'a str, usize, usize)) {
        self.cuts(text).for_each_word(text, f);
    }

    /// Cuts `text` into words and keeps only their lengths, to be read
    /// back later with `Cuts::for_each_word`.
    pub fn cuts(&self, text: &str) -> Cuts {
        let mut cuts = Cuts::default();
        let mut start = 0;
        for t in self.jieba.cut(text, self.hmm) {
            cuts.push(t.byte_end - start);
            start = t.byte_end;
        }
        cuts
    }

    /// The part-of-speech tag `tag` gives the word `text[start..end]`, a
    /// word that `cut` cut there; `None` if it did not.
    ///
    /// jieba-rs 0.11 tags a word by the word alone (its dictionary tag, or
    /// for a word the HMM found, the tag its characters suggest), never by
    /// its neighbours; so the word is tagged on its own first, and only if
    /// jieba would cut it differently when it stands alone is the clause it
    /// stands in tagged and the word looked up there (jieba cuts runs of Han
    /// characters and ASCII letters one by one, so its cuts never cross
    /// punctuation or a line break). This lets a caller count words with the
    /// faster `for_each_word` and tag each distinct word once.
    pub fn tag_at<'a>(&'a self, text: &'a str, start: usize, end: usize) -> Option<&'a str> {
        let word = &text[start..end];
        if let [t] = self.jieba.tag(word, self.hmm).as_slice() {
            if t.word == word {
                return Some(t.tag);
            }
        }
        let clause_start = text[..start]
            .char_indices()
            .rev()
            .find(|&(_, c)| ends_clause(c))
            .map_or(0, |(i, c)| i + c.len_utf8());
        let clause_end = text[end..]
            .char_indices()
            .find(|&(_, c)| ends_clause(c))
            .map_or(text.len(), |(i, _)| end + i);
        let clause = &text[clause_start..clause_end];
        self.jieba
            .tag(clause, self.hmm)
            .into_iter()
            .find(|t| t.byte_start == start - clause_start && t.byte_end == end - clause_start)
            .map(|t| t.tag)
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

/// A character jieba never puts in a word with its neighbours: a line break,
/// CJK or general punctuation, a full-width form (jieba cuts runs of CJK
/// ideographs and ASCII letters, digits and `+#&._%-`; anything else stands
/// alone).
fn ends_clause(c: char) -> bool {
    matches!(c,
        '\n' | '\r'
        | '\u{2000}'..='\u{206F}'
        | '\u{3000}'..='\u{303F}'
        | '\u{FF00}'..='\u{FFEF}')
}

/// The words of one text as jieba cut them, kept compactly: the length in
/// bytes of each word (the words tile the text, so each starts where the
/// previous one ends), one byte for a word shorter than 255 bytes and five
/// for a longer one (`LONG_WORD` and its length): a book's cuts are kept
/// from cutting to counting, and four bytes a word would cost more than the
/// tables. Whitespace words are kept here and dropped on reading.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cuts {
    lengths: Vec<u8>,
    words: usize,
}

/// Marks a word of 255 bytes or more: its length follows in four bytes.
const LONG_WORD: u8 = 0;

impl Cuts {
    fn push(&mut self, len: usize) {
        match u8::try_from(len) {
            Ok(n) if n != LONG_WORD && n != u8::MAX => self.lengths.push(n),
            _ => {
                self.lengths.push(LONG_WORD);
                self.lengths.extend((len as u32).to_le_bytes());
            }
        }
        self.words += 1;
    }

    /// Number of words, whitespace included.
    pub fn len(&self) -> usize {
        self.words
    }

    pub fn is_empty(&self) -> bool {
        self.words == 0
    }

    /// Calls `f(word, byte_start, byte_end)` for each word of `text` (the
    /// text these cuts were made from) in order, whitespace dropped.
    pub fn for_each_word<'a>(&self, text: &'a str, mut f: impl FnMut(&'a str, usize, usize)) {
        let mut start = 0;
        let mut lengths = self.lengths.iter();
        while let Some(&n) = lengths.next() {
            let len = if n == LONG_WORD {
                let mut len = [0; 4];
                for b in &mut len {
                    *b = *lengths.next().expect("a long word's length");
                }
                u32::from_le_bytes(len) as usize
            } else {
                n as usize
            };
            let end = start + len;
            let word = &text[start..end];
            // A word starting with a multi-byte character is never
            // whitespace but for the rare Unicode spaces (U+3000…).
            if word.as_bytes()[0] < 0x80 || word.starts_with(char::is_whitespace) {
                if !word.trim().is_empty() {
                    f(word, start, end);
                }
            } else {
                f(word, start, end);
            }
            start = end;
        }
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
    fn cuts_keep_words_of_every_length() {
        let mut cuts = Cuts::default();
        let text = format!("{}宋江 {}", "a".repeat(300), "b".repeat(255));
        for len in [300, 6, 1, 255] {
            cuts.push(len);
        }
        let mut words = Vec::new();
        cuts.for_each_word(&text, |w, s, e| words.push((w.len(), s, e)));
        assert_eq!(words, vec![(300, 0, 300), (6, 300, 306), (255, 307, 562)]);
        assert_eq!(cuts.len(), 4);
    }

    #[test]
    fn tag_at_gives_the_tag_of_tag_for_every_word() {
        let seg = Segmenter::new(true);
        let text = "话说那宋江道：“兄弟们且去。”\n林冲和鲁智深到了青禾山下，\n王教头私走延安府九纹龙大闹史家村";
        let tagged = seg.tag(text);
        let mut cut = Vec::new();
        seg.for_each_word(text, |w, s, e| cut.push((w, s, e)));
        assert_eq!(cut.len(), tagged.len());
        for (w, (word, s, e)) in tagged.iter().zip(cut) {
            assert_eq!((w.text, w.start, w.end), (word, s, e));
            assert_eq!(seg.tag_at(text, s, e), Some(w.pos), "{word}");
        }
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
