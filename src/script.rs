//! Script: Traditional/Simplified normalization behind one trait, with the
//! map from the converted text back to the original spelling.
//!
//! OpenCC's t2s, tw2s and hk2s configurations map characters and phrases to
//! ones of the same length, so a character offset into the converted text is
//! one into the original. `Normalized` relies on that, and checks it: a
//! paragraph whose length changes keeps its converted form as "original".

use crate::charset::CharSet;
use crate::error::{Error, Result};
use std::sync::OnceLock;

/// An OpenCC conversion configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScriptConfig {
    T2s,
    Tw2s,
    Hk2s,
    S2t,
    S2tw,
    S2hk,
}

impl ScriptConfig {
    pub fn parse(name: &str) -> Result<Self> {
        Ok(match name.to_ascii_lowercase().as_str() {
            "t2s" => ScriptConfig::T2s,
            "tw2s" => ScriptConfig::Tw2s,
            "hk2s" => ScriptConfig::Hk2s,
            "s2t" => ScriptConfig::S2t,
            "s2tw" => ScriptConfig::S2tw,
            "s2hk" => ScriptConfig::S2hk,
            other => {
                return Err(Error::Usage(format!(
                    "unknown conversion '{other}' (t2s, tw2s, hk2s, s2t, s2tw, s2hk)"
                )))
            }
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            ScriptConfig::T2s => "t2s",
            ScriptConfig::Tw2s => "tw2s",
            ScriptConfig::Hk2s => "hk2s",
            ScriptConfig::S2t => "s2t",
            ScriptConfig::S2tw => "s2tw",
            ScriptConfig::S2hk => "s2hk",
        }
    }
}

/// Converts text between scripts. Shared by reference across threads.
pub trait Converter: Send + Sync {
    fn convert(&self, text: &str) -> String;
    /// What `convert` gives, or `None` when that is `text` itself. A
    /// converter that knows which characters its dictionaries can change
    /// skips a text without any (Simplified text, for a conversion to
    /// Simplified) and converts only the clauses that hold one; the default
    /// converts everything.
    fn convert_lazily(&self, text: &str) -> Option<String> {
        Some(self.convert(text))
    }
    /// Engine and configuration, for run.json.
    fn describe(&self) -> String;
}

/// The default engine: ferrous-opencc, pure Rust, OpenCC's own dictionaries.
pub struct FerrousConverter {
    inner: ferrous_opencc::OpenCC,
    config: ScriptConfig,
    /// The characters a built-in conversion to Simplified can change.
    changing: Option<&'static CharSet>,
}

impl FerrousConverter {
    pub fn new(config: ScriptConfig) -> Result<Self> {
        use ferrous_opencc::config::BuiltinConfig as B;
        let builtin = match config {
            ScriptConfig::T2s => B::T2s,
            ScriptConfig::Tw2s => B::Tw2s,
            ScriptConfig::Hk2s => B::Hk2s,
            ScriptConfig::S2t => B::S2t,
            ScriptConfig::S2tw => B::S2tw,
            ScriptConfig::S2hk => B::S2hk,
        };
        let inner = ferrous_opencc::OpenCC::from_config(builtin)
            .map_err(|e| Error::Opencc(e.to_string()))?;
        Ok(FerrousConverter {
            inner,
            config,
            changing: changing_chars(config),
        })
    }

    /// An OpenCC JSON configuration file (and the dictionaries it names).
    pub fn from_file(path: &std::path::Path) -> Result<Self> {
        let inner = ferrous_opencc::OpenCC::new(path).map_err(|e| Error::Invalid {
            path: path.to_path_buf(),
            message: format!("not a usable OpenCC configuration: {e}"),
        })?;
        Ok(FerrousConverter {
            inner,
            config: ScriptConfig::T2s,
            changing: None,
        })
    }
}

impl Converter for FerrousConverter {
    fn convert(&self, text: &str) -> String {
        self.inner.convert(text)
    }

    fn convert_lazily(&self, text: &str) -> Option<String> {
        match self.changing {
            Some(set) => convert_clauses(text, set, |clause| self.inner.convert(clause)),
            None => Some(self.inner.convert(text)),
        }
    }

    fn describe(&self) -> String {
        format!("ferrous-opencc {}", self.config.name())
    }
}

/// For each built-in conversion to Simplified, the characters it can change
/// (made by `scripts/gen-script-changing` from the OpenCC dictionaries
/// ferrous-opencc embeds; a test checks it against the converter).
const CHANGING: &str = include_str!("script_changing.txt");

/// Characters that occur in no key of those dictionaries (checked by the
/// generator), so no dictionary match crosses them: converting the clauses
/// between them one by one gives what converting the whole text gives.
const SEPARATORS: &str = "\n\r\t ，。！？：；、「」『』（）《》〈〉“”‘’—…　,.!?:;()\"'[]【】-·";

/// The characters a built-in conversion to Simplified can change.
fn changing_chars(config: ScriptConfig) -> Option<&'static CharSet> {
    static SETS: OnceLock<Vec<(&'static str, CharSet)>> = OnceLock::new();
    let sets = SETS.get_or_init(|| {
        CHANGING
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| l.split_once('\t'))
            .map(|(name, chars)| (name, chars.chars().collect::<CharSet>()))
            .collect()
    });
    sets.iter()
        .find(|(name, _)| *name == config.name())
        .map(|(_, set)| set)
}

/// Converts only the clauses of `text` that hold a character of `changing`
/// (`None`: no clause does, the text stays as it is). A text where such
/// characters are common (Traditional text) is converted whole.
fn convert_clauses(
    text: &str,
    changing: &CharSet,
    convert: impl Fn(&str) -> String,
) -> Option<String> {
    let hits = text.chars().filter(|&c| changing.contains(&c)).count();
    if hits == 0 {
        return None;
    }
    if hits * 200 > text.len() {
        return Some(convert(text));
    }
    static SEPARATOR_SET: OnceLock<CharSet> = OnceLock::new();
    let separators = SEPARATOR_SET.get_or_init(|| SEPARATORS.chars().collect::<CharSet>());
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut clause_start = 0;
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        if separators.contains(&c) {
            clause_start = i + c.len_utf8();
        } else if changing.contains(&c) {
            let end = chars
                .by_ref()
                .find(|&(_, c)| separators.contains(&c))
                .map_or(text.len(), |(j, _)| j);
            out.push_str(&text[copied..clause_start]);
            out.push_str(&convert(&text[clause_start..end]));
            copied = end;
            clause_start = end;
        }
    }
    out.push_str(&text[copied..]);
    Some(out)
}

/// The C++ libopencc through opencc-rust 1.1 (feature `system-opencc`),
/// linked against the system's OpenCC 1.1 (Debian's `libopencc-dev`).
///
/// A built-in configuration is opened by its full path in OpenCC's data
/// folder (`/usr/share/opencc` on Debian): given a bare file name such as
/// `t2s.json`, libopencc would first try the current folder.
#[cfg(feature = "system-opencc")]
pub struct SystemConverter {
    inner: opencc_rust::OpenCC,
    name: String,
}

/// Where OpenCC installs its configurations and dictionaries, in the order
/// pkg-config finds the library (a local build before the system's).
#[cfg(feature = "system-opencc")]
const OPENCC_DATA_DIRS: [&str; 2] = ["/usr/local/share/opencc", "/usr/share/opencc"];

#[cfg(feature = "system-opencc")]
impl SystemConverter {
    pub fn new(config: ScriptConfig) -> Result<Self> {
        use opencc_rust::DefaultConfig as D;
        let default = match config {
            ScriptConfig::T2s => D::T2S,
            ScriptConfig::Tw2s => D::TW2S,
            ScriptConfig::Hk2s => D::HK2S,
            ScriptConfig::S2t => D::S2T,
            ScriptConfig::S2tw => D::S2TW,
            ScriptConfig::S2hk => D::S2HK,
        };
        let name = default.get_file_name();
        let path = OPENCC_DATA_DIRS
            .iter()
            .map(|dir| std::path::Path::new(dir).join(name))
            .find(|path| path.is_file())
            .unwrap_or_else(|| name.into());
        let inner = opencc_rust::OpenCC::new(&path).map_err(|e| {
            Error::Opencc(format!(
                "libopencc cannot open {} ({e}); is OpenCC's data installed (libopencc-data)?",
                path.display()
            ))
        })?;
        Ok(SystemConverter {
            inner,
            name: format!("libopencc {}", config.name()),
        })
    }

    /// An OpenCC JSON configuration file (and the dictionaries it names).
    pub fn from_file(path: &std::path::Path) -> Result<Self> {
        let invalid = |message: &str| Error::Invalid {
            path: path.to_path_buf(),
            message: format!("not a usable OpenCC configuration: {message}"),
        };
        // opencc-rust panics on a path that is not UTF-8 or holds a NUL.
        match path.to_str() {
            Some(s) if !s.contains('\0') => {}
            _ => return Err(invalid("the path must be UTF-8 without NUL")),
        }
        let inner = opencc_rust::OpenCC::new(path).map_err(invalid)?;
        Ok(SystemConverter {
            inner,
            name: format!("libopencc {}", path.display()),
        })
    }
}

#[cfg(feature = "system-opencc")]
impl Converter for SystemConverter {
    fn convert(&self, text: &str) -> String {
        // The C API takes NUL-terminated strings (opencc-rust panics on an
        // inner NUL), so convert the pieces between NULs and keep the NULs.
        if !text.contains('\0') {
            return self.inner.convert(text);
        }
        let mut out = String::with_capacity(text.len());
        for (i, piece) in text.split('\0').enumerate() {
            if i > 0 {
                out.push('\0');
            }
            if !piece.is_empty() {
                out.push_str(&self.inner.convert(piece));
            }
        }
        out
    }

    fn describe(&self) -> String {
        self.name.clone()
    }
}

/// A text in analysis form (converted) together with the original it came
/// from, aligned character by character.
#[derive(Debug, Clone)]
pub struct Normalized {
    /// The converted text that every later stage reads.
    pub text: String,
    /// The original text, same number of characters as `text`; `None` when
    /// it is `text` itself.
    original: Option<String>,
    /// Byte offsets of char starts in `text` and `original`, or `None` when both
    /// have identical byte layouts (the common case: all CJK, 3 bytes each).
    char_starts: Option<(Vec<u32>, Vec<u32>)>,
}

impl Normalized {
    /// Converts `original` with `converter`, keeping the alignment. A text
    /// that is only Simplified already passes through unchanged.
    pub fn new(original: String, converter: &dyn Converter) -> Normalized {
        let Some(converted) = converter.convert_lazily(&original) else {
            return Normalized::unchanged(original);
        };
        if converted == original {
            return Normalized::unchanged(original);
        }
        let (text, original) = if converted.chars().count() == original.chars().count() {
            (converted, original)
        } else {
            align_by_paragraph(&original, converter)
        };
        let char_starts = if same_layout(&text, &original) {
            None
        } else {
            Some((char_starts(&text), char_starts(&original)))
        };
        Normalized {
            text,
            original: Some(original),
            char_starts,
        }
    }

    /// Text that needs no conversion (the converted form is the original).
    pub fn unchanged(text: String) -> Normalized {
        Normalized {
            text,
            original: None,
            char_starts: None,
        }
    }

    /// The original spelling of a byte range of `text`.
    pub fn original(&self, start: usize, end: usize) -> &str {
        let original = self.original_text();
        match &self.char_starts {
            None => &original[start..end],
            Some((conv, orig)) => {
                let s = conv
                    .binary_search(&(start as u32))
                    .expect("range starts on a char");
                let e = conv.binary_search(&(end as u32)).unwrap_or(conv.len());
                let os = orig[s] as usize;
                let oe = orig.get(e).map_or(original.len(), |&o| o as usize);
                &original[os..oe]
            }
        }
    }

    /// The aligned original text.
    pub fn original_text(&self) -> &str {
        self.original.as_deref().unwrap_or(&self.text)
    }
}

fn char_starts(s: &str) -> Vec<u32> {
    s.char_indices().map(|(i, _)| i as u32).collect()
}

fn same_layout(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.char_indices()
            .zip(b.char_indices())
            .all(|((_, x), (_, y))| x.len_utf8() == y.len_utf8())
}

/// Converts paragraph by paragraph; a paragraph whose length changes stands
/// as its own original, so the two texts stay aligned.
fn align_by_paragraph(original: &str, converter: &dyn Converter) -> (String, String) {
    let mut text = String::with_capacity(original.len());
    let mut aligned = String::with_capacity(original.len());
    for (i, para) in original.split('\n').enumerate() {
        if i > 0 {
            text.push('\n');
            aligned.push('\n');
        }
        let conv = converter.convert(para);
        if conv.chars().count() == para.chars().count() {
            aligned.push_str(para);
        } else {
            aligned.push_str(&conv);
        }
        text.push_str(&conv);
    }
    (text, aligned)
}

/// Converts a byte offset into a character offset (for output columns).
pub fn char_offset(text: &str, byte: usize) -> usize {
    text[..byte].chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traditional_and_simplified_meet_and_original_is_kept() {
        let conv = FerrousConverter::new(ScriptConfig::T2s).unwrap();
        let n = Normalized::new("耶律撻烈率軍至錦州".to_string(), &conv);
        assert_eq!(n.text, "耶律挞烈率军至锦州");
        let start = n.text.find("耶律挞烈").unwrap();
        assert_eq!(n.original(start, start + "耶律挞烈".len()), "耶律撻烈");
        let simple = Normalized::new("耶律挞烈率军至锦州".to_string(), &conv);
        assert_eq!(simple.text, "耶律挞烈率军至锦州");
    }

    struct Lengthen;
    impl Converter for Lengthen {
        fn convert(&self, text: &str) -> String {
            text.replace('甲', "甲乙")
        }
        fn describe(&self) -> String {
            "test".into()
        }
    }

    #[test]
    fn a_paragraph_that_changes_length_stays_aligned() {
        let n = Normalized::new("甲兵。\n錦州".to_string(), &Lengthen);
        assert_eq!(n.text, "甲乙兵。\n錦州");
        let s = n.text.find("錦州").unwrap();
        assert_eq!(n.original(s, s + "錦州".len()), "錦州");
        assert_eq!(n.original(0, "甲乙".len()), "甲乙");
    }

    /// The texts the lazy conversion is checked on: the corpus (水滸傳 in
    /// Traditional and in Simplified, the seeds).
    fn sample_texts() -> Vec<String> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut texts = Vec::new();
        for dir in ["corpus/shuihu", "corpus/seeds"] {
            for entry in std::fs::read_dir(root.join(dir)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "txt") {
                    texts.push(std::fs::read_to_string(path).unwrap());
                }
            }
        }
        texts
    }

    #[test]
    fn lazy_conversion_gives_what_conversion_gives() {
        for config in [ScriptConfig::T2s, ScriptConfig::Tw2s, ScriptConfig::Hk2s] {
            let conv = FerrousConverter::new(config).unwrap();
            assert!(conv.changing.is_some(), "{}", config.name());
            let t2s = FerrousConverter::new(ScriptConfig::T2s).unwrap();
            let mut skipped = 0;
            for text in sample_texts() {
                // Traditional, Simplified, and every paragraph of both.
                let simplified = t2s.convert(&text);
                let pieces = [text.as_str(), simplified.as_str()];
                let paragraphs = pieces.iter().flat_map(|t| t.split('\n'));
                for piece in pieces.into_iter().chain(paragraphs) {
                    let whole = conv.convert(piece);
                    match conv.convert_lazily(piece) {
                        Some(lazy) => assert_eq!(lazy, whole, "{}: {piece}", config.name()),
                        None => {
                            skipped += 1;
                            assert_eq!(whole, piece, "{}", config.name());
                        }
                    }
                }
            }
            assert!(
                skipped > 10,
                "{}: only {skipped} texts skipped",
                config.name()
            );
        }
    }

    #[test]
    fn every_character_the_converter_changes_is_listed() {
        // Catches a new ferrous-opencc whose dictionaries change more
        // characters than scripts/gen-script-changing saw.
        let ranges = [
            0x3400..0x4DC0,
            0x4E00..0xA000,
            0xF900..0xFB00,
            0x20000..0x2A6E0,
        ];
        for config in [ScriptConfig::T2s, ScriptConfig::Tw2s, ScriptConfig::Hk2s] {
            let conv = FerrousConverter::new(config).unwrap();
            let set = conv.changing.unwrap();
            let chars: String = ranges
                .iter()
                .cloned()
                .flatten()
                .filter_map(char::from_u32)
                .collect();
            let converted = conv.convert(&chars);
            for (a, b) in chars.chars().zip(converted.chars()) {
                assert!(a == b || set.contains(&a), "{}: {a} → {b}", config.name());
            }
            assert_eq!(chars.chars().count(), converted.chars().count());
        }
    }

    #[test]
    fn simplified_text_is_kept_once() {
        let conv = FerrousConverter::new(ScriptConfig::T2s).unwrap();
        let n = Normalized::new("宋江道：“兄弟们且去。”".to_string(), &conv);
        assert!(n.original.is_none());
        assert_eq!(n.original_text(), n.text);
        assert_eq!(n.original(0, "宋江".len()), "宋江");
        // A clause with a character the conversion may change is converted.
        let mixed = "宋江道：“兄弟们且去。”林沖說：什麼？";
        let n = Normalized::new(mixed.to_string(), &conv);
        assert_eq!(n.text, conv.convert(mixed));
        assert_eq!(n.original_text(), mixed);
    }

    #[test]
    fn mixed_widths_map_back() {
        let conv = FerrousConverter::new(ScriptConfig::T2s).unwrap();
        let n = Normalized::new("A錦州b".to_string(), &conv);
        let s = n.text.find("锦州").unwrap();
        assert_eq!(n.original(s, s + "锦州".len()), "錦州");
    }
}

#[cfg(all(test, feature = "system-opencc"))]
mod system_tests {
    use super::*;

    #[test]
    fn libopencc_opens_every_builtin_config() {
        const TRAD: &str = "耶律撻烈率軍至錦州";
        const SIMP: &str = "耶律挞烈率军至锦州";
        for (config, input, expected) in [
            (ScriptConfig::T2s, TRAD, SIMP),
            (ScriptConfig::Tw2s, TRAD, SIMP),
            (ScriptConfig::Hk2s, TRAD, SIMP),
            (ScriptConfig::S2t, SIMP, TRAD),
            (ScriptConfig::S2tw, SIMP, TRAD),
            (ScriptConfig::S2hk, SIMP, TRAD),
        ] {
            let conv = SystemConverter::new(config).unwrap();
            assert_eq!(conv.convert(input), expected, "{}", config.name());
            assert_eq!(conv.describe(), format!("libopencc {}", config.name()));
        }
    }

    #[test]
    fn empty_text_and_inner_nul_do_not_panic() {
        let conv = SystemConverter::new(ScriptConfig::T2s).unwrap();
        assert_eq!(conv.convert(""), "");
        assert_eq!(conv.convert("錦州\0\0軍"), "锦州\0\0军");
    }

    #[test]
    fn a_config_file_is_read_and_a_missing_one_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.json");
        let err = SystemConverter::from_file(&missing).err().unwrap();
        assert!(err.to_string().contains("missing.json"), "{err}");
        let broken = dir.path().join("broken.json");
        std::fs::write(&broken, "{ not json").unwrap();
        assert!(SystemConverter::from_file(&broken).is_err());

        // Debian's data folder; other systems keep it elsewhere.
        let t2s = std::path::Path::new("/usr/share/opencc/t2s.json");
        if t2s.exists() {
            let conv = SystemConverter::from_file(t2s).unwrap();
            assert_eq!(conv.convert("錦州"), "锦州");
        }
    }
}
