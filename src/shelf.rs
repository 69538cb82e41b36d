//! A shelf: many books analyzed one by one, each into its own tables, plus
//! two shelf tables over all of them (books.csv, entities.csv). The shelf
//! tables are built from small per-book summaries, so a book's data can be
//! released before the next is read, and the summaries can come either from
//! a book just analyzed (`analyze --books`) or from a book's output folder
//! written by an earlier run (`zhnovel merge`): a shelf too big for one
//! machine is analyzed book by book anywhere and merged after, with the same
//! bytes as one run.

use crate::analysis::BookTables;
use crate::entity::EntityType;
use crate::error::{Error, Result};
use crate::input::{collect_sources, natural_cmp, SourcePath};
use crate::rows::{BookRow, ShelfEntityRow};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One book of a shelf: its name (file stem or folder name) and sources.
#[derive(Debug, Clone)]
pub struct ShelfBook {
    pub name: String,
    pub sources: Vec<SourcePath>,
}

/// The books inside shelf folders: each top-level `.txt` file or folder in
/// each path is one book, named by its file stem or folder name, in natural
/// order within each path (第2部 before 第10部).
pub fn shelf_books(paths: &[PathBuf]) -> Result<Vec<ShelfBook>> {
    let mut books = Vec::new();
    for path in paths {
        let entries = std::fs::read_dir(path).map_err(|_| Error::Missing { path: path.clone() })?;
        let mut items: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        items
            .retain(|p| p.is_dir() || p.extension().is_some_and(|e| e.eq_ignore_ascii_case("txt")));
        items.sort_by(|a, b| natural_cmp(&a.to_string_lossy(), &b.to_string_lossy()));
        for item in items {
            books.push(ShelfBook {
                name: book_name(&item),
                sources: collect_sources(std::slice::from_ref(&item))?,
            });
        }
    }
    if books.is_empty() {
        return Err(Error::NoText {
            path: paths.first().cloned().unwrap_or_default(),
        });
    }
    Ok(books)
}

/// A book's name on the shelf: its file stem or folder name.
pub fn book_name(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default()
}

/// What the shelf tables need of one book.
#[derive(Debug, Clone, PartialEq)]
pub struct BookSummary {
    pub book: BookRow,
    /// (entity, type, count, chapters) of each entity row.
    pub entities: Vec<(String, &'static str, u64, u64)>,
}

impl BookSummary {
    /// The summary of a book just analyzed.
    pub fn of_tables(name: &str, t: &BookTables) -> BookSummary {
        BookSummary {
            book: BookRow {
                book: name.to_string(),
                chapters: t.chapters.len(),
                characters: t.chapters.iter().map(|c| c.characters).sum(),
                words: t.chapters.iter().map(|c| c.words).sum(),
                entities: t.entities.len(),
                // As `of_folder` reads it back: the chapters' mentions.
                mentions: t.chapters.iter().map(|c| c.mentions).sum(),
            },
            entities: t
                .entities
                .iter()
                .map(|e| (e.entity.clone(), e.kind, e.count, e.chapters))
                .collect(),
        }
    }

    /// The summary of a book's output folder, read back from its
    /// chapters and entities tables (CSV with or without BOM, TSV or JSON
    /// Lines, whichever the folder holds).
    pub fn of_folder(name: &str, dir: &Path) -> Result<BookSummary> {
        let chapters = read_table(dir, "chapters")?;
        let entities = read_table(dir, "entities")?;
        let mut book = BookRow {
            book: name.to_string(),
            chapters: chapters.rows.len(),
            characters: 0,
            words: 0,
            entities: entities.rows.len(),
            mentions: 0,
        };
        for row in &chapters.rows {
            book.characters += chapters.number(row, "characters")? as usize;
            book.words += chapters.number(row, "words")? as usize;
            book.mentions += chapters.number(row, "mentions")? as usize;
        }
        let mut rows = Vec::with_capacity(entities.rows.len());
        for row in &entities.rows {
            let kind = entities.cell(row, "type")?;
            let kind = EntityType::parse(kind)
                .ok_or_else(|| entities.invalid(format!("unknown entity type `{kind}`")))?;
            rows.push((
                entities.cell(row, "entity")?.to_string(),
                kind.as_str(),
                entities.number(row, "count")?,
                entities.number(row, "chapters")?,
            ));
        }
        Ok(BookSummary {
            book,
            entities: rows,
        })
    }
}

/// The shelf tables, added to book by book.
#[derive(Debug, Default)]
pub struct ShelfTables {
    books: Vec<BookRow>,
    /// (entity, type) → (count, books, chapters)
    entities: HashMap<(String, &'static str), (u64, u64, u64)>,
}

impl ShelfTables {
    pub fn add(&mut self, summary: BookSummary) {
        self.books.push(summary.book);
        for (entity, kind, count, chapters) in summary.entities {
            let s = self.entities.entry((entity, kind)).or_default();
            s.0 += count;
            s.1 += 1;
            s.2 += chapters;
        }
    }

    /// books.csv rows in the order added, and entities.csv rows by count
    /// (descending), then name and type.
    pub fn into_rows(self) -> (Vec<BookRow>, Vec<ShelfEntityRow>) {
        let mut rows: Vec<ShelfEntityRow> = self
            .entities
            .into_iter()
            .map(
                |((entity, kind), (count, books, chapters))| ShelfEntityRow {
                    entity,
                    kind,
                    count,
                    books,
                    chapters,
                },
            )
            .collect();
        rows.sort_by(|a, b| {
            b.count
                .cmp(&a.count)
                .then_with(|| a.entity.cmp(&b.entity))
                .then_with(|| a.kind.cmp(b.kind))
        });
        (self.books, rows)
    }
}

/// A table read back from an output folder: header and records as strings.
struct ReadTable {
    path: PathBuf,
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl ReadTable {
    fn invalid(&self, message: String) -> Error {
        Error::Invalid {
            path: self.path.clone(),
            message,
        }
    }

    fn cell<'r>(&self, row: &'r [String], column: &str) -> Result<&'r str> {
        let i = self
            .header
            .iter()
            .position(|h| h == column)
            .ok_or_else(|| self.invalid(format!("no `{column}` column")))?;
        Ok(row.get(i).map_or("", String::as_str))
    }

    fn number(&self, row: &[String], column: &str) -> Result<u64> {
        let cell = self.cell(row, column)?;
        cell.parse()
            .map_err(|_| self.invalid(format!("`{column}` is not a count: `{cell}`")))
    }
}

/// Reads `<dir>/<name>.csv`, `.tsv` or `.jsonl`, whichever exists.
fn read_table(dir: &Path, name: &str) -> Result<ReadTable> {
    for ext in ["csv", "tsv", "jsonl"] {
        let path = dir.join(format!("{name}.{ext}"));
        if !path.is_file() {
            continue;
        }
        let bytes = std::fs::read(&path).map_err(|source| Error::Read {
            path: path.clone(),
            source,
        })?;
        let text = std::str::from_utf8(&bytes).map_err(|_| Error::Invalid {
            path: path.clone(),
            message: "not UTF-8".into(),
        })?;
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        return match ext {
            "jsonl" => read_jsonl(path, text),
            _ => read_delimited(path, text, if ext == "csv" { b',' } else { b'\t' }),
        };
    }
    Err(Error::Invalid {
        path: dir.to_path_buf(),
        message: format!("no {name}.csv, {name}.tsv or {name}.jsonl: not a zhnovel book folder"),
    })
}

fn read_delimited(path: PathBuf, text: &str, delimiter: u8) -> Result<ReadTable> {
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .from_reader(text.as_bytes());
    let bad = |e: csv::Error| Error::Invalid {
        path: path.clone(),
        message: e.to_string(),
    };
    let header = reader
        .headers()
        .map_err(bad)?
        .iter()
        .map(str::to_string)
        .collect();
    let mut rows = Vec::new();
    for record in reader.records() {
        rows.push(record.map_err(bad)?.iter().map(str::to_string).collect());
    }
    Ok(ReadTable { path, header, rows })
}

fn read_jsonl(path: PathBuf, text: &str) -> Result<ReadTable> {
    let mut header: Vec<String> = Vec::new();
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.is_empty()) {
        let value: serde_json::Map<String, serde_json::Value> = serde_json::from_str(line)
            .map_err(|e| Error::Invalid {
                path: path.clone(),
                message: format!("line {}: {e}", i + 1),
            })?;
        if header.is_empty() {
            header = value.keys().cloned().collect();
        }
        rows.push(
            header
                .iter()
                .map(|k| match value.get(k) {
                    Some(serde_json::Value::String(s)) => s.clone(),
                    Some(v) => v.to_string(),
                    None => String::new(),
                })
                .collect(),
        );
    }
    Ok(ReadTable { path, header, rows })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) {
        std::fs::write(dir.join(name), text).unwrap();
    }

    fn folder(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("zhnovel-shelf-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_book_folder_is_summarized_from_its_chapters_and_entities() {
        let dir = folder("csv");
        write(
            &dir,
            "chapters.csv",
            "\u{feff}index,title,file,encoding,characters,words,mentions,junk_removed\n\
             1,第一回,a.txt,utf-8,100,60,7,0\n2,第二回,a.txt,utf-8,50,30,3,1\n",
        );
        write(
            &dir,
            "entities.csv",
            "\u{feff}entity,type,count,chapters,first_chapter,original,variants,aliases,evidence,confidence\n\
             甲乙,person,6,2,1,甲乙,,,say,1.00\n丙城,place,4,1,2,丙城,,,,0.90\n",
        );
        let s = BookSummary::of_folder("一", &dir).unwrap();
        assert_eq!(
            s.book,
            BookRow {
                book: "一".into(),
                chapters: 2,
                characters: 150,
                words: 90,
                entities: 2,
                mentions: 10,
            }
        );
        assert_eq!(
            s.entities,
            vec![
                ("甲乙".to_string(), "person", 6, 2),
                ("丙城".to_string(), "place", 4, 1)
            ]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn jsonl_tables_read_like_csv() {
        let dir = folder("jsonl");
        write(
            &dir,
            "chapters.jsonl",
            "{\"index\":1,\"title\":\"t\",\"file\":\"a\",\"encoding\":\"utf-8\",\"characters\":9,\"words\":5,\"mentions\":2,\"junk_removed\":0}\n",
        );
        write(
            &dir,
            "entities.jsonl",
            "{\"entity\":\"甲乙\",\"type\":\"army\",\"count\":2,\"chapters\":1}\n",
        );
        let s = BookSummary::of_folder("b", &dir).unwrap();
        assert_eq!((s.book.characters, s.book.mentions), (9, 2));
        assert_eq!(s.entities, vec![("甲乙".to_string(), "army", 2, 1)]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_folder_without_tables_is_an_error_naming_it() {
        let dir = folder("empty");
        let err = BookSummary::of_folder("x", &dir).unwrap_err().to_string();
        assert!(err.contains("not a zhnovel book folder"), "{err}");
        assert!(err.contains(&dir.display().to_string()), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn shelf_entities_add_up_over_books_and_sort_by_count() {
        let book = |name: &str, entities: Vec<(&str, &'static str, u64, u64)>| BookSummary {
            book: BookRow {
                book: name.into(),
                chapters: 1,
                characters: 1,
                words: 1,
                entities: entities.len(),
                mentions: 1,
            },
            entities: entities
                .into_iter()
                .map(|(e, k, c, ch)| (e.to_string(), k, c, ch))
                .collect(),
        };
        let mut shelf = ShelfTables::default();
        shelf.add(book(
            "一",
            vec![("甲", "person", 3, 2), ("乙", "place", 5, 1)],
        ));
        shelf.add(book(
            "二",
            vec![("甲", "person", 4, 3), ("甲", "place", 1, 1)],
        ));
        let (books, rows) = shelf.into_rows();
        assert_eq!(
            books.iter().map(|b| b.book.as_str()).collect::<Vec<_>>(),
            ["一", "二"]
        );
        let got: Vec<_> = rows
            .iter()
            .map(|r| (r.entity.as_str(), r.kind, r.count, r.books, r.chapters))
            .collect();
        assert_eq!(
            got,
            [
                ("甲", "person", 7, 2, 5),
                ("乙", "place", 5, 1, 1),
                ("甲", "place", 1, 1, 1)
            ]
        );
    }

    #[test]
    fn shelf_books_are_the_txt_files_and_folders_in_natural_order() {
        let dir = folder("walk");
        for f in ["第10部.txt", "第2部.txt", "notes.md"] {
            write(&dir, f, "第一回\n甲乙来了。\n");
        }
        std::fs::create_dir_all(dir.join("第3部")).unwrap();
        write(&dir.join("第3部"), "1.txt", "甲乙来了。\n");
        let books = shelf_books(std::slice::from_ref(&dir)).unwrap();
        let names: Vec<_> = books.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["第2部", "第3部", "第10部"]);
        assert_eq!(books[1].sources.len(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
