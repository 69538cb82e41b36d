//! Eval: scores extracted entities against an answer key (`file, type,
//! canonical, aliases, required, note`, see `tests/data/gold-README.md`).
//!
//! Scoring, one chapter (file) at a time:
//! - recall: a required row counts as found when some extracted entity of the
//!   same type has the canonical name or one of the aliases among its names;
//! - precision: an extracted entity counts as right when one of its names is
//!   the canonical name or an alias of any row of that file (any type,
//!   required or optional), otherwise it is a false positive;
//! - person, place and army are summed together (`Report::main_total`);
//!   factions are scored separately, the same way.
//!
//! Names are compared as given: pass Simplified names (the entity name always
//! is; the gold is Simplified).

use crate::entity::EntityType;
use crate::error::{Error, Result};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

/// The types summed for the main score; factions are scored on their own.
pub const MAIN_TYPES: [EntityType; 3] = [EntityType::Person, EntityType::Place, EntityType::Army];

/// All types in report order.
pub const ALL_TYPES: [EntityType; 4] = [
    EntityType::Person,
    EntityType::Place,
    EntityType::Army,
    EntityType::Faction,
];

/// One row of the answer key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoldRow {
    pub file: String,
    pub kind: EntityType,
    pub canonical: String,
    pub aliases: Vec<String>,
    pub required: bool,
    pub note: String,
}

impl GoldRow {
    /// The canonical name and the aliases.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.canonical.as_str()).chain(self.aliases.iter().map(String::as_str))
    }
}

/// An answer key: rows for one or more files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Gold {
    pub rows: Vec<GoldRow>,
}

#[derive(serde::Deserialize)]
struct RawRow {
    file: String,
    #[serde(rename = "type")]
    kind: String,
    canonical: String,
    #[serde(default)]
    aliases: String,
    #[serde(default)]
    required: String,
    #[serde(default)]
    note: String,
}

impl Gold {
    /// Reads an answer key CSV (UTF-8, optional BOM, header row).
    pub fn load(path: &Path) -> Result<Gold> {
        let bytes = std::fs::read(path).map_err(|source| Error::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Gold::parse(path, &bytes)
    }

    /// Parses answer key CSV bytes; `path` names the source in errors.
    pub fn parse(path: &Path, bytes: &[u8]) -> Result<Gold> {
        let bytes = bytes.strip_prefix("\u{FEFF}".as_bytes()).unwrap_or(bytes);
        let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(bytes);
        let mut rows = Vec::new();
        for (i, record) in reader.deserialize::<RawRow>().enumerate() {
            // Line numbers: the header is line 1.
            let line = i + 2;
            let bad = |message: String| Error::Dictionary {
                path: path.to_path_buf(),
                line,
                message,
            };
            let raw = record.map_err(|e| bad(e.to_string()))?;
            let kind = EntityType::parse(raw.kind.trim()).ok_or_else(|| {
                bad(format!(
                    "unknown type '{}' (person, place, army, faction)",
                    raw.kind
                ))
            })?;
            let required = match raw.required.trim() {
                "" | "yes" | "true" | "1" => true,
                "optional" | "no" | "false" | "0" => false,
                other => {
                    return Err(bad(format!(
                        "required must be 'yes' or 'optional', not '{other}'"
                    )))
                }
            };
            let canonical = raw.canonical.trim().to_string();
            if canonical.is_empty() {
                return Err(bad("empty canonical name".to_string()));
            }
            let aliases = raw
                .aliases
                .split('|')
                .map(str::trim)
                .filter(|a| !a.is_empty())
                .map(str::to_string)
                .collect();
            rows.push(GoldRow {
                file: raw.file.trim().to_string(),
                kind,
                canonical,
                aliases,
                required,
                note: raw.note,
            });
        }
        Ok(Gold { rows })
    }

    /// The files the key covers, sorted.
    pub fn files(&self) -> Vec<&str> {
        let set: BTreeSet<&str> = self.rows.iter().map(|r| r.file.as_str()).collect();
        set.into_iter().collect()
    }

    /// The rows of one file, matched by its exact name or by the last
    /// component of a path (`corpus/seeds/000_x.txt` matches `000_x.txt`).
    pub fn rows_for<'a>(&'a self, file_name: &'a str) -> impl Iterator<Item = &'a GoldRow> + 'a {
        let base = Path::new(file_name)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(file_name);
        self.rows
            .iter()
            .filter(move |r| r.file == file_name || r.file == base)
    }
}

/// One extracted entity as the scorer sees it: its type and every name it
/// goes by (entity name, original spelling, variants, aliases), Simplified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extracted {
    pub kind: EntityType,
    pub names: Vec<String>,
}

impl Extracted {
    /// The extracted view of a catalog entity: its name and its aliases.
    pub fn from_entity(entity: &crate::entity::Entity) -> Extracted {
        let mut names = vec![entity.name.clone()];
        names.extend(entity.aliases.iter().cloned());
        Extracted {
            kind: entity.kind,
            names,
        }
    }
}

/// Counts for one type in one file (or summed).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Extracted entities whose names match some row of the file.
    pub right: usize,
    /// Extracted entities of this type.
    pub extracted: usize,
    /// Required rows found by an extracted entity of the same type.
    pub found: usize,
    /// Required rows.
    pub required: usize,
}

impl Counts {
    pub fn precision(&self) -> f64 {
        ratio(self.right, self.extracted)
    }

    pub fn recall(&self) -> f64 {
        ratio(self.found, self.required)
    }

    pub fn f1(&self) -> f64 {
        let (p, r) = (self.precision(), self.recall());
        if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        }
    }

    fn add(&mut self, other: &Counts) {
        self.right += other.right;
        self.extracted += other.extracted;
        self.found += other.found;
        self.required += other.required;
    }
}

/// Nothing to get wrong counts as perfect.
fn ratio(num: usize, den: usize) -> f64 {
    if den == 0 {
        1.0
    } else {
        num as f64 / den as f64
    }
}

/// What went wrong, for a user improving dictionaries.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mistake {
    /// An extracted entity matching no row of its file: (type, names).
    FalsePositive(EntityType, Vec<String>),
    /// A required row no extracted entity of its type matches: (type, canonical).
    Miss(EntityType, String),
}

/// The score of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileScore {
    pub file: String,
    pub counts: BTreeMap<EntityType, Counts>,
    pub mistakes: Vec<Mistake>,
}

impl FileScore {
    pub fn counts(&self, kind: EntityType) -> Counts {
        self.counts.get(&kind).copied().unwrap_or_default()
    }
}

/// Scores the entities extracted from one file against the key's rows for it.
pub fn score(gold: &Gold, file_name: &str, extracted: &[Extracted]) -> FileScore {
    let rows: Vec<&GoldRow> = gold.rows_for(file_name).collect();
    let any_row_name: BTreeSet<&str> = rows.iter().flat_map(|r| r.names()).collect();
    let mut counts: BTreeMap<EntityType, Counts> =
        ALL_TYPES.iter().map(|&t| (t, Counts::default())).collect();
    let mut mistakes = Vec::new();
    for e in extracted {
        let c = counts.entry(e.kind).or_default();
        c.extracted += 1;
        if e.names.iter().any(|n| any_row_name.contains(n.as_str())) {
            c.right += 1;
        } else {
            mistakes.push(Mistake::FalsePositive(e.kind, e.names.clone()));
        }
    }
    for row in rows.iter().filter(|r| r.required) {
        let c = counts.entry(row.kind).or_default();
        c.required += 1;
        let found = extracted
            .iter()
            .filter(|e| e.kind == row.kind)
            .any(|e| e.names.iter().any(|n| row.names().any(|r| r == n)));
        if found {
            c.found += 1;
        } else {
            mistakes.push(Mistake::Miss(row.kind, row.canonical.clone()));
        }
    }
    mistakes.sort();
    FileScore {
        file: file_name.to_string(),
        counts,
        mistakes,
    }
}

/// File scores summed per type, with the mistakes of every file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    pub files: Vec<FileScore>,
}

impl Report {
    pub fn new() -> Report {
        Report::default()
    }

    pub fn add(&mut self, score: FileScore) {
        self.files.push(score);
    }

    /// One type summed over all files.
    pub fn total(&self, kind: EntityType) -> Counts {
        let mut sum = Counts::default();
        for f in &self.files {
            sum.add(&f.counts(kind));
        }
        sum
    }

    /// Person, place and army summed over all files: the headline score.
    pub fn main_total(&self) -> Counts {
        let mut sum = Counts::default();
        for t in MAIN_TYPES {
            sum.add(&self.total(t));
        }
        sum
    }

    /// Every mistake as (file, mistake), in file order.
    pub fn mistakes(&self) -> Vec<(&str, &Mistake)> {
        self.files
            .iter()
            .flat_map(|f| f.mistakes.iter().map(move |m| (f.file.as_str(), m)))
            .collect()
    }

    /// The mistakes as lines: `file<TAB>false-positive|miss<TAB>type<TAB>names`.
    pub fn mistakes_text(&self) -> String {
        let mut out = String::new();
        for (file, m) in self.mistakes() {
            let line = match m {
                Mistake::FalsePositive(t, names) => {
                    format!("{file}\tfalse-positive\t{t}\t{}\n", names.join("|"))
                }
                Mistake::Miss(t, name) => format!("{file}\tmiss\t{t}\t{name}\n"),
            };
            out.push_str(&line);
        }
        out
    }
}

impl fmt::Display for Report {
    /// A small table: one line per type, then person+place+army.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<18} {:>9} {:>9} {:>9} {:>7} {:>7}",
            "type", "right", "found", "precision", "recall", "F1"
        )?;
        let line = |f: &mut fmt::Formatter<'_>, name: &str, c: Counts| {
            writeln!(
                f,
                "{:<18} {:>9} {:>9} {:>9.3} {:>7.3} {:>7.3}",
                name,
                format!("{}/{}", c.right, c.extracted),
                format!("{}/{}", c.found, c.required),
                c.precision(),
                c.recall(),
                c.f1()
            )
        };
        for t in ALL_TYPES {
            line(f, t.as_str(), self.total(t))?;
        }
        line(f, "person+place+army", self.main_total())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "file,type,canonical,aliases,required,note
a.txt,person,耶律大石,林牙,yes,
a.txt,place,居庸关,,yes,
a.txt,place,南口,居庸关南口,optional,\"accepted, not required\"
a.txt,army,辽兵,辽军,yes,
a.txt,faction,辽,辽人,yes,
b.txt,person,柯北辰,,yes,
";

    fn ex(kind: EntityType, names: &[&str]) -> Extracted {
        Extracted {
            kind,
            names: names.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn key() -> Gold {
        Gold::parse(Path::new("key.csv"), KEY.as_bytes()).unwrap()
    }

    #[test]
    fn key_parses_with_quotes_aliases_and_optional_rows() {
        let g = key();
        assert_eq!(g.rows.len(), 6);
        assert_eq!(g.rows[0].aliases, vec!["林牙"]);
        assert!(!g.rows[2].required);
        assert_eq!(g.rows[2].note, "accepted, not required");
        assert_eq!(g.files(), vec!["a.txt", "b.txt"]);
    }

    #[test]
    fn bad_type_names_the_line() {
        let err = Gold::parse(
            Path::new("k.csv"),
            "file,type,canonical,aliases,required,note\na,hero,x,,yes,\n".as_bytes(),
        )
        .unwrap_err();
        assert!(
            err.to_string().starts_with("k.csv:2: unknown type 'hero'"),
            "{err}"
        );
    }

    #[test]
    fn aliases_count_for_recall_and_optional_rows_for_precision() {
        let extracted = [
            ex(EntityType::Person, &["林牙"]),
            ex(EntityType::Place, &["居庸关南口"]),
            ex(EntityType::Army, &["辽军"]),
            ex(EntityType::Place, &["山谷"]),
        ];
        let s = score(&key(), "corpus/seeds/a.txt", &extracted);
        let person = s.counts(EntityType::Person);
        assert_eq!(
            (
                person.right,
                person.extracted,
                person.found,
                person.required
            ),
            (1, 1, 1, 1)
        );
        let place = s.counts(EntityType::Place);
        // 居庸关南口 is an optional alias: right, but 居庸关 is still missed.
        assert_eq!(
            (place.right, place.extracted, place.found, place.required),
            (1, 2, 0, 1)
        );
        assert_eq!(
            s.mistakes,
            vec![
                Mistake::FalsePositive(EntityType::Place, vec!["山谷".into()]),
                Mistake::Miss(EntityType::Place, "居庸关".into()),
                Mistake::Miss(EntityType::Faction, "辽".into()),
            ]
        );
    }

    #[test]
    fn a_name_of_the_wrong_type_is_right_for_precision_but_finds_nothing() {
        let s = score(&key(), "a.txt", &[ex(EntityType::Place, &["耶律大石"])]);
        let place = s.counts(EntityType::Place);
        assert_eq!((place.right, place.extracted), (1, 1));
        assert_eq!(s.counts(EntityType::Person).found, 0);
    }

    #[test]
    fn report_sums_files_and_prints_a_table() {
        let g = key();
        let mut r = Report::new();
        r.add(score(&g, "a.txt", &[ex(EntityType::Person, &["耶律大石"])]));
        r.add(score(
            &g,
            "b.txt",
            &[
                ex(EntityType::Person, &["柯北辰"]),
                ex(EntityType::Person, &["二人"]),
            ],
        ));
        let p = r.total(EntityType::Person);
        assert_eq!((p.right, p.extracted, p.found, p.required), (2, 3, 2, 2));
        let main = r.main_total();
        assert_eq!((main.found, main.required), (2, 4));
        let table = r.to_string();
        assert!(table.contains("person+place+army"), "{table}");
        assert!(r
            .mistakes_text()
            .contains("b.txt\tfalse-positive\tperson\t二人"));
    }
}
