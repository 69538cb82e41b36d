//! The rows of every table zhnovel writes, as plain data with their column
//! names: what the stages hand to `output`, which formats and writes them.
//! A leaf module, so a stage can build rows without depending on a writer.

use serde::{Serialize, Serializer};
use std::sync::Arc;

/// entities.csv
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct EntityRow {
    pub entity: String,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub count: u64,
    pub chapters: u64,
    pub first_chapter: usize,
    pub original: String,
    /// Other spellings as written; `|`-separated in CSV.
    #[serde(serialize_with = "joined")]
    pub variants: Vec<String>,
    #[serde(serialize_with = "joined")]
    pub aliases: Vec<String>,
    #[serde(serialize_with = "joined")]
    pub evidence: Vec<String>,
    pub confidence: String,
}

/// Writes a list as one `|`-separated cell (typed JSON Lines splits it
/// back into an array).
fn joined<S: Serializer>(list: &[String], serializer: S) -> std::result::Result<S::Ok, S::Error> {
    serializer.serialize_str(&list.join("|"))
}

/// mentions.csv
///
/// Its strings are shared: a book has hundreds of thousands of mentions but
/// far fewer names, spellings and sentences holding them, and a shared
/// string costs no allocation per row.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct MentionRow {
    pub chapter: usize,
    #[serde(serialize_with = "shared_str")]
    pub entity: Arc<str>,
    #[serde(rename = "type")]
    pub kind: &'static str,
    #[serde(serialize_with = "shared_str")]
    pub surface: Arc<str>,
    pub start: usize,
    pub end: usize,
    #[serde(serialize_with = "shared_str")]
    pub sentence: Arc<str>,
}

/// Writes an `Arc<str>` as the string it holds (as a `String` is written).
fn shared_str<S: Serializer>(s: &Arc<str>, serializer: S) -> std::result::Result<S::Ok, S::Error> {
    serializer.serialize_str(s)
}

/// cooccurrence.csv
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CooccurrenceRow {
    pub source: String,
    pub target: String,
    pub source_type: &'static str,
    pub target_type: &'static str,
    pub count: u64,
    pub pmi: String,
}

/// frequency.csv
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FrequencyRow {
    pub word: String,
    pub pos: String,
    pub count: u64,
    pub chapters: u64,
}

/// chapters.csv
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ChapterRow {
    pub index: usize,
    pub title: String,
    pub file: String,
    pub encoding: &'static str,
    pub characters: usize,
    pub words: usize,
    pub mentions: usize,
    pub junk_removed: usize,
}

/// A row type: its column names, in serialization order, so that an empty
/// table still gets its header.
pub trait Columns: Serialize {
    const COLUMNS: &'static [&'static str];
}

/// Where a table's rows go as they are made, a batch at a time in table
/// order: kept in a `Vec`, or written to the table's file at once
/// (`output::TableWriter`, which keeps a write error for its `finish`).
pub trait RowSink<R>: Send {
    fn put(&mut self, rows: Vec<R>);
}

impl<R: Send> RowSink<R> for Vec<R> {
    fn put(&mut self, rows: Vec<R>) {
        if self.is_empty() {
            *self = rows;
        } else {
            self.extend(rows);
        }
    }
}

macro_rules! columns {
    ($t:ty, [$($c:literal),*]) => {
        impl Columns for $t {
            const COLUMNS: &'static [&'static str] = &[$($c),*];
        }
    };
}
columns!(
    EntityRow,
    [
        "entity",
        "type",
        "count",
        "chapters",
        "first_chapter",
        "original",
        "variants",
        "aliases",
        "evidence",
        "confidence"
    ]
);
columns!(
    MentionRow,
    ["chapter", "entity", "type", "surface", "start", "end", "sentence"]
);
columns!(
    CooccurrenceRow,
    [
        "source",
        "target",
        "source_type",
        "target_type",
        "count",
        "pmi"
    ]
);
columns!(FrequencyRow, ["word", "pos", "count", "chapters"]);
columns!(
    ChapterRow,
    [
        "index",
        "title",
        "file",
        "encoding",
        "characters",
        "words",
        "mentions",
        "junk_removed"
    ]
);

/// timeline.csv
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TimelineRow {
    pub entity: String,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub chapter: usize,
    pub title: String,
    pub count: u64,
}

/// cooccurrence-chapters.csv
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ChapterPairRow {
    /// Shared by the rows of one pair (a pair meets in many chapters).
    #[serde(serialize_with = "shared_str")]
    pub source: Arc<str>,
    #[serde(serialize_with = "shared_str")]
    pub target: Arc<str>,
    pub chapter: usize,
    pub count: u64,
}

/// A line of `zhnovel kwic --format csv`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct KwicRow {
    pub chapter: usize,
    /// The mention's `start` in mentions.csv.
    pub offset: usize,
    pub left: String,
    /// The mention as written.
    #[serde(rename = "match")]
    pub matched: String,
    pub right: String,
    pub entity: String,
    #[serde(rename = "type")]
    pub kind: &'static str,
}

impl Columns for KwicRow {
    const COLUMNS: &'static [&'static str] = &[
        "chapter", "offset", "left", "match", "right", "entity", "type",
    ];
}

impl Columns for TimelineRow {
    const COLUMNS: &'static [&'static str] = &["entity", "type", "chapter", "title", "count"];
}

impl Columns for ChapterPairRow {
    const COLUMNS: &'static [&'static str] = &["source", "target", "chapter", "count"];
}

/// books.csv of a shelf (`analyze --books`, `merge`): one row per book.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct BookRow {
    pub book: String,
    pub chapters: usize,
    pub characters: usize,
    pub words: usize,
    pub entities: usize,
    pub mentions: usize,
}

/// entities.csv of a shelf: an entity's totals over the books.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ShelfEntityRow {
    pub entity: String,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub count: u64,
    pub books: u64,
    pub chapters: u64,
}

columns!(
    BookRow,
    [
        "book",
        "chapters",
        "characters",
        "words",
        "entities",
        "mentions"
    ]
);
columns!(
    ShelfEntityRow,
    ["entity", "type", "count", "books", "chapters"]
);
