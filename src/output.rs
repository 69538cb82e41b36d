//! Output: row structs → CSV (UTF-8 with BOM for Excel/WPS), TSV or JSON
//! Lines. With `outdir` (the output folder: lock, staging, manifest), the
//! only module that writes files. Every table goes to a temp file in the
//! target folder and is renamed into place, so a table is either complete or
//! absent; `outdir` makes a run's folder complete or absent as a whole.

use crate::error::{Error, Result};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

mod book;
mod graph;
pub mod outdir;
mod report;
mod sqlite;
mod views;
use crate::rows::Columns;
pub use book::{write_book, write_book_sqlite, BookStreams};
pub use graph::{type_colour, write_gexf, write_graphml};
use outdir::MANIFEST;
pub use report::{write_report, ReportInfo};
pub use sqlite::{Sqlite, SQLITE};
pub use views::{write_kwic_plain, write_typed_json};

/// File format of the tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableFormat {
    Csv { bom: bool },
    Tsv,
    Jsonl,
}

impl TableFormat {
    /// The format of the tables in a book folder written by `analyze`
    /// (CSV with or without BOM, TSV, JSON Lines; not `--format sqlite`).
    pub fn of_folder(dir: &Path) -> Result<TableFormat> {
        for format in [TableFormat::Tsv, TableFormat::Jsonl] {
            if dir
                .join(format!("entities.{}", format.extension()))
                .is_file()
            {
                return Ok(format);
            }
        }
        let path = dir.join("entities.csv");
        if !path.is_file() {
            return Err(Error::Invalid {
                path: dir.to_path_buf(),
                message: "not a zhnovel book folder with CSV, TSV or JSON Lines tables (merge does not read --format sqlite)".into(),
            });
        }
        let bytes = std::fs::read(&path).map_err(|source| Error::Read { path, source })?;
        Ok(TableFormat::Csv {
            bom: bytes.starts_with("\u{feff}".as_bytes()),
        })
    }

    pub fn extension(self) -> &'static str {
        match self {
            TableFormat::Csv { .. } => "csv",
            TableFormat::Tsv => "tsv",
            TableFormat::Jsonl => "jsonl",
        }
    }
}

/// Writes rows to any writer in the given format (used for stdout too).
pub fn write_rows<W: Write, R: Columns>(
    out: W,
    format: TableFormat,
    rows: &[R],
) -> std::io::Result<()> {
    let mut w = RowWriter::new::<R>(BufWriter::new(out), format)?;
    for row in rows {
        w.row(row)?;
    }
    w.finish()?.flush()
}

/// Rows written one by one in a table format: the BOM and header first,
/// then each row as it comes.
enum RowWriter<W: Write> {
    Delimited(Box<csv::Writer<W>>),
    Jsonl(W),
}

impl<W: Write> RowWriter<W> {
    fn new<R: Columns>(mut out: W, format: TableFormat) -> std::io::Result<RowWriter<W>> {
        let delimiter = match format {
            TableFormat::Csv { bom } => {
                if bom {
                    out.write_all("\u{FEFF}".as_bytes())?;
                }
                b','
            }
            TableFormat::Tsv => b'\t',
            TableFormat::Jsonl => return Ok(RowWriter::Jsonl(out)),
        };
        // CRLF and a BOM: what Excel, LibreOffice and WPS open without an import dialog.
        let mut w = csv::WriterBuilder::new()
            .delimiter(delimiter)
            .terminator(csv::Terminator::CRLF)
            .has_headers(false)
            .from_writer(out);
        w.write_record(R::COLUMNS)?;
        Ok(RowWriter::Delimited(Box::new(w)))
    }

    fn row<R: Columns>(&mut self, row: &R) -> std::io::Result<()> {
        match self {
            RowWriter::Delimited(w) => w.serialize(row).map_err(csv_to_io),
            RowWriter::Jsonl(w) => {
                write_typed_json(w, row)?;
                w.write_all(b"\n")
            }
        }
    }

    /// Flushes what is buffered and gives the writer back.
    fn finish(self) -> std::io::Result<W> {
        match self {
            RowWriter::Delimited(w) => (*w).into_inner().map_err(|e| e.into_error()),
            RowWriter::Jsonl(mut w) => w.flush().map(|()| w),
        }
    }
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
    let mut table = TableWriter::create(dir, name, format)?;
    table.write(rows);
    table.finish()
}

/// A table written while its rows are made, a batch at a time (the longest
/// tables, chapter by chapter, so that they are never held whole). Like
/// `write_table` it goes through a temp file, renamed into place by
/// `finish`; dropped unfinished (the run failed), the temp file is removed.
pub struct TableWriter<R: Columns> {
    name: String,
    rows: Option<RowWriter<BufWriter<File>>>,
    file: TempFile,
    /// The first write error; later rows are dropped, `finish` reports it.
    error: Option<std::io::Error>,
    _rows: std::marker::PhantomData<fn(&R)>,
}

impl<R: Columns> TableWriter<R> {
    /// Starts `dir/name.ext`: its temp file, with the header written.
    pub fn create(dir: &Path, name: &str, format: TableFormat) -> Result<TableWriter<R>> {
        let path = dir.join(format!("{name}.{}", format.extension()));
        test_pause("before");
        let (file, w) = TempFile::create(&path)?;
        let w = BufWriter::with_capacity(1 << 16, w);
        let rows = RowWriter::new::<R>(w, format).map_err(|e| file.error(e))?;
        Ok(TableWriter {
            name: name.to_string(),
            rows: Some(rows),
            file,
            error: None,
            _rows: std::marker::PhantomData,
        })
    }

    /// Writes `rows` after those written before.
    pub fn write(&mut self, rows: &[R]) {
        if self.error.is_some() {
            return;
        }
        let w = self.rows.as_mut().expect("unfinished");
        if let Err(e) = rows.iter().try_for_each(|r| w.row(r)) {
            self.error = Some(e);
        }
    }

    /// Flushes the table and renames it into place; or reports the first
    /// write error (and removes the temp file).
    pub fn finish(mut self) -> Result<PathBuf> {
        let rows = self.rows.take().expect("unfinished");
        if let Some(e) = self.error.take() {
            return Err(self.file.error(e));
        }
        let written = rows
            .finish()
            .and_then(|w| w.into_inner().map_err(|e| e.into_error()));
        let file = written.map_err(|e| self.file.error(e))?;
        let path = self.file.commit(file)?;
        test_pause(&self.name);
        Ok(path)
    }
}

impl<R: Columns + Send> crate::rows::RowSink<R> for TableWriter<R> {
    fn put(&mut self, rows: Vec<R>) {
        self.write(&rows);
    }
}

/// Writes `path` through a temp file in the same folder, renamed into place.
pub fn atomic_write(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
) -> Result<()> {
    let (tmp, file) = TempFile::create(path)?;
    let mut w = BufWriter::with_capacity(1 << 16, file);
    let written = write(&mut w).and_then(|()| w.into_inner().map_err(|e| e.into_error()));
    let file = written.map_err(|e| tmp.error(e))?;
    tmp.commit(file).map(drop)
}

/// The temp file a file is written to before it is renamed into place
/// (`.name.PID.tmp` in the same folder). Removed if dropped uncommitted.
struct TempFile {
    path: PathBuf,
    tmp: PathBuf,
    committed: bool,
}

impl TempFile {
    /// The temp file of `path`, created, and its open file to write into.
    fn create(path: &Path) -> Result<(TempFile, File)> {
        let dir = path.parent().unwrap_or(Path::new("."));
        let file_name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let tmp = dir.join(format!(".{file_name}.{}.tmp", std::process::id()));
        let temp = TempFile {
            path: path.to_path_buf(),
            tmp,
            committed: false,
        };
        let file = File::create(&temp.tmp).map_err(|e| temp.error(e))?;
        Ok((temp, file))
    }

    /// The error of writing the target file.
    fn error(&self, source: std::io::Error) -> Error {
        Error::Write {
            path: self.path.clone(),
            source,
        }
    }

    /// Syncs what was written and renames it into place.
    fn commit(mut self, file: File) -> Result<PathBuf> {
        file.sync_all().map_err(|e| self.error(e))?;
        std::fs::rename(&self.tmp, &self.path).map_err(|e| self.error(e))?;
        self.committed = true;
        Ok(self.path.clone())
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
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

/// A test hook, not a feature: when `ZHNOVEL_TEST_PAUSE_AFTER_TABLE` names
/// this write point (`before`: before each table is written; a table's name,
/// such as `entities`: right after it is in place; `commit`: after run.json
/// is staged), the run creates the file `ZHNOVEL_TEST_PAUSE_MARKER` names
/// (to tell the test it got there) and sleeps a minute, so that the test can
/// kill it at that moment. Unset, it costs one environment look-up per table.
pub fn test_pause(point: &str) {
    if std::env::var_os("ZHNOVEL_TEST_PAUSE_AFTER_TABLE").is_some_and(|v| v == point) {
        if let Some(marker) = std::env::var_os("ZHNOVEL_TEST_PAUSE_MARKER") {
            let _ = File::create(marker);
        }
        std::thread::sleep(std::time::Duration::from_secs(60));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rows::FrequencyRow;

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
    fn a_streamed_table_is_whole_when_finished_and_absent_when_dropped() {
        let row = |word: &str, count| FrequencyRow {
            word: word.into(),
            pos: "n".into(),
            count,
            chapters: 1,
        };
        let dir = tempfile::tempdir().unwrap();
        let csv = TableFormat::Csv { bom: false };
        let mut table = TableWriter::create(dir.path(), "frequency", csv).unwrap();
        table.write(&[row("将军", 3)]);
        table.write(&[row("城池", 2), row("兵马", 1)]);
        let path = table.finish().unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "word,pos,count,chapters\r\n将军,n,3,1\r\n城池,n,2,1\r\n兵马,n,1,1\r\n"
        );
        let unfinished: TableWriter<FrequencyRow> =
            TableWriter::create(dir.path(), "mentions", csv).unwrap();
        drop(unfinished);
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(left, vec!["frequency.csv".to_string()]);
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
