//! Output: row structs → CSV (UTF-8 with BOM for Excel/WPS), TSV or JSON
//! Lines, and the output folder's manifest. The only module that writes
//! files. Every table goes to a temp file in the target folder and is renamed
//! into place, so a table is either complete or absent.

use crate::error::{Error, Result};
use serde::{Serialize, Serializer};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

mod graph;
mod report;
mod sqlite;
mod views;
pub use graph::{type_colour, write_gexf, write_graphml};
pub use report::{write_report, ReportInfo};
pub use sqlite::{Sqlite, SQLITE};
pub use views::{write_kwic_plain, write_typed_json, ChapterPairRow, KwicRow, TimelineRow};

/// File format of the tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableFormat {
    Csv { bom: bool },
    Tsv,
    Jsonl,
}

impl TableFormat {
    pub fn extension(self) -> &'static str {
        match self {
            TableFormat::Csv { .. } => "csv",
            TableFormat::Tsv => "tsv",
            TableFormat::Jsonl => "jsonl",
        }
    }
}

/// The name of the manifest by which zhnovel knows a folder it wrote.
pub const MANIFEST: &str = "run.json";

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
    pub variants: String,
    pub aliases: String,
    pub evidence: String,
    pub confidence: String,
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

/// Writes rows to any writer in the given format (used for stdout too).
pub fn write_rows<W: Write, R: Columns>(
    mut out: W,
    format: TableFormat,
    rows: &[R],
) -> std::io::Result<()> {
    let delimiter = match format {
        TableFormat::Csv { bom } => {
            if bom {
                out.write_all("\u{FEFF}".as_bytes())?;
            }
            b','
        }
        TableFormat::Tsv => b'\t',
        TableFormat::Jsonl => {
            let mut w = BufWriter::new(out);
            for row in rows {
                write_typed_json(&mut w, row)?;
                w.write_all(b"\n")?;
            }
            return w.flush();
        }
    };
    // CRLF and a BOM: what Excel, LibreOffice and WPS open without an import dialog.
    let mut w = csv::WriterBuilder::new()
        .delimiter(delimiter)
        .terminator(csv::Terminator::CRLF)
        .has_headers(false)
        .from_writer(out);
    w.write_record(R::COLUMNS)?;
    for row in rows {
        w.serialize(row).map_err(csv_to_io)?;
    }
    w.flush()
}

fn csv_to_io(e: csv::Error) -> std::io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(io) => io,
        other => std::io::Error::other(format!("{other:?}")),
    }
}

/// Writes one table into `dir` as `name.ext`, through a temp file renamed into place.
pub fn write_table<R: Columns>(
    dir: &Path,
    name: &str,
    format: TableFormat,
    rows: &[R],
) -> Result<PathBuf> {
    let path = dir.join(format!("{name}.{}", format.extension()));
    atomic_write(&path, |w| write_rows(w, format, rows))?;
    Ok(path)
}

/// Writes `path` through a temp file in the same folder, renamed into place.
pub fn atomic_write(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{file_name}.{}.tmp", std::process::id()));
    let err = |source| Error::Write {
        path: path.to_path_buf(),
        source,
    };
    let result = (|| {
        let file = File::create(&tmp)?;
        let mut w = BufWriter::with_capacity(1 << 16, file);
        write(&mut w)?;
        let file = w.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(err)
}

/// Prepares the output folder: creates it, or checks that it is empty or one
/// zhnovel wrote before (has `run.json`). A foreign non-empty folder is
/// refused unless `force`, and nothing in it is touched.
pub fn prepare_output_dir(dir: &Path, force: bool) -> Result<()> {
    if dir.exists() {
        if !dir.is_dir() {
            return Err(Error::Invalid {
                path: dir.to_path_buf(),
                message: "output path exists and is not a folder".into(),
            });
        }
        let mut entries = std::fs::read_dir(dir).map_err(|source| Error::Read {
            path: dir.to_path_buf(),
            source,
        })?;
        let empty = entries.next().is_none();
        if !empty && !dir.join(MANIFEST).exists() && !force {
            return Err(Error::ForeignOutput {
                path: dir.to_path_buf(),
            });
        }
    } else {
        std::fs::create_dir_all(dir).map_err(|source| Error::Write {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    // Fail now, before the work, if the folder cannot be written.
    let probe = dir.join(format!(".zhnovel-probe.{}", std::process::id()));
    File::create(&probe)
        .and_then(|_| std::fs::remove_file(&probe))
        .map_err(|source| Error::Write {
            path: dir.to_path_buf(),
            source,
        })
}

/// run.json: what produced the tables in a folder.
#[derive(Debug, Clone, Serialize)]
pub struct Manifest {
    pub tool: &'static str,
    pub version: &'static str,
    pub inputs: Vec<String>,
    pub options: serde_json::Value,
    /// Seconds since the Unix epoch when the run finished.
    pub time: u64,
}

pub fn write_manifest(dir: &Path, manifest: &Manifest) -> Result<()> {
    atomic_write(&dir.join(MANIFEST), |w| {
        serde_json::to_writer_pretty(&mut *w, manifest)?;
        w.write_all(b"\n")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_has_bom_header_and_crlf() {
        let rows = [FrequencyRow {
            word: "将军".into(),
            pos: "n".into(),
            count: 3,
            chapters: 2,
        }];
        let mut buf = Vec::new();
        write_rows(&mut buf, TableFormat::Csv { bom: true }, &rows).unwrap();
        assert_eq!(
            String::from_utf8(buf).unwrap(),
            "\u{FEFF}word,pos,count,chapters\r\n将军,n,3,2\r\n"
        );
        let mut buf = Vec::new();
        write_rows(&mut buf, TableFormat::Jsonl, &rows).unwrap();
        assert_eq!(
            String::from_utf8(buf).unwrap(),
            "{\"word\":\"将军\",\"pos\":\"n\",\"count\":3,\"chapters\":2}\n"
        );
    }

    #[test]
    fn foreign_folder_is_refused_and_untouched() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("notes.txt"), "mine").unwrap();
        assert!(matches!(
            prepare_output_dir(dir.path(), false),
            Err(Error::ForeignOutput { .. })
        ));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        prepare_output_dir(dir.path(), true).unwrap();
    }
}
