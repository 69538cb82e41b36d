//! Answer keys of whole books: the development keys' format, a header
//! line, then `type, canonical, aliases, main, side, note` (tab-separated,
//! aliases `|`-separated), and the checked not-names lists beside them.
//! Read by `train` (labels) and `book_eval` (scores).

use crate::entity::EntityType;
use crate::error::{Error, Result};
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// One row of a book key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRow {
    pub kind: EntityType,
    pub canonical: String,
    pub aliases: Vec<String>,
    pub main: bool,
    pub side: String,
}

impl KeyRow {
    /// The canonical name and the aliases.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.canonical.as_str()).chain(self.aliases.iter().map(String::as_str))
    }
}

/// A book-level answer key.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BookKey {
    pub rows: Vec<KeyRow>,
}

impl BookKey {
    /// Reads a key file (UTF-8, optional BOM).
    pub fn load(path: &Path) -> Result<BookKey> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Read {
            path: path.to_path_buf(),
            source,
        })?;
        BookKey::parse(path, &text)
    }

    /// Parses key text; `path` names the source in errors.
    pub fn parse(path: &Path, text: &str) -> Result<BookKey> {
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
        let mut rows = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let cols: Vec<&str> = line.split('\t').collect();
            if i == 0 && cols.first().map(|c| c.trim()) == Some("type") {
                continue;
            }
            let bad = |message: String| Error::Dictionary {
                path: path.to_path_buf(),
                line: line_no,
                message,
            };
            if cols.len() < 2 {
                return Err(bad(
                    "expected type<TAB>canonical[<TAB>aliases<TAB>main<TAB>side<TAB>note]"
                        .to_string(),
                ));
            }
            let kind = EntityType::parse(cols[0].trim()).ok_or_else(|| {
                bad(format!(
                    "unknown type '{}' (person, place, army, faction)",
                    cols[0]
                ))
            })?;
            let canonical = cols[1].trim().to_string();
            if canonical.is_empty() {
                return Err(bad("empty canonical name".to_string()));
            }
            let col = |k: usize| cols.get(k).map_or("", |c| c.trim());
            rows.push(KeyRow {
                kind,
                canonical,
                aliases: col(2)
                    .split('|')
                    .map(str::trim)
                    .filter(|a| !a.is_empty())
                    .map(str::to_string)
                    .collect(),
                main: matches!(col(3), "yes" | "main" | "1" | "true"),
                side: col(4).to_string(),
            });
        }
        Ok(BookKey { rows })
    }

    /// Every name of the key with its type; a name given to two types is left out.
    pub fn name_types(&self) -> HashMap<&str, EntityType> {
        let mut out: HashMap<&str, EntityType> = HashMap::new();
        let mut clash: HashSet<&str> = HashSet::new();
        for row in &self.rows {
            for n in row.names() {
                match out.get(n) {
                    Some(&k) if k != row.kind => {
                        clash.insert(n);
                    }
                    _ => {
                        out.insert(n, row.kind);
                    }
                }
            }
        }
        for n in clash {
            out.remove(n);
        }
        out
    }
}

/// Reads a not-names list: one string a line, `#` comments.
pub fn load_not_names(path: &Path) -> Result<HashSet<String>> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Read {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(text
        .lines()
        .map(|l| l.split('\t').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A small key of invented names (also used by `train`'s tests).
    pub(crate) const KEY: &str = "type\tcanonical\taliases\tmain\tside\tnote\n\
        person\t甲乙丙\t丙公|老丙\tyes\t丁\t\n\
        place\t戊己城\t\t\t\t\n\
        army\t庚军\t\t\t丁\t\n\
        faction\t丁\t\t\t\t\n";

    #[test]
    fn book_keys_parse_with_aliases_main_and_side() {
        let key = BookKey::parse(Path::new("k.tsv"), KEY).unwrap();
        assert_eq!(key.rows.len(), 4);
        assert_eq!(key.rows[0].aliases, vec!["丙公", "老丙"]);
        assert!(key.rows[0].main && !key.rows[1].main);
        assert_eq!(key.rows[2].side, "丁");
        let err = BookKey::parse(Path::new("k.tsv"), "type\tcanonical\nmonster\t某\n").unwrap_err();
        assert!(err.to_string().contains("unknown type"), "{err}");
    }
}
