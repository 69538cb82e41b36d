//! `--format sqlite`: a book's tables in one SQLite file (`zhnovel.sqlite`,
//! the bundled SQLite through rusqlite), one SQL table per CSV table with the
//! same columns in the same order and the same rows in the same order;
//! whole numbers as INTEGER, `confidence` and `pmi` as REAL, the rest TEXT
//! (lists stay `|`-separated). Indexes on the entity and chapter columns.

use super::views::DECIMAL_COLUMNS;
use crate::error::{Error, Result};
use crate::rows::Columns;
use rusqlite::types::Value;
use rusqlite::Connection;
use std::path::{Path, PathBuf};

/// The file name of the database.
pub const SQLITE: &str = "zhnovel.sqlite";

/// A database being written: a temp file in the target folder, renamed into
/// place by `finish`.
pub struct Sqlite {
    conn: Connection,
    tmp: PathBuf,
    path: PathBuf,
}

/// Columns that get an index: the ones that name an entity or a chapter.
const INDEXED: &[&str] = &["entity", "source", "target", "chapter", "index"];

impl Sqlite {
    /// Starts `zhnovel.sqlite` in `dir`.
    pub fn create(dir: &Path) -> Result<Sqlite> {
        let path = dir.join(SQLITE);
        let tmp = dir.join(format!(".{SQLITE}.{}.tmp", std::process::id()));
        let _ = std::fs::remove_file(&tmp);
        let conn = Connection::open(&tmp).map_err(|e| sql_error(&path, e))?;
        conn.execute_batch("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN;")
            .map_err(|e| sql_error(&path, e))?;
        Ok(Sqlite { conn, tmp, path })
    }

    /// Writes one table: `name` with the columns of `R`, one row per row.
    pub fn table<R: Columns>(&mut self, name: &str, rows: &[R]) -> Result<()> {
        let path = self.path.clone();
        let err = |e| sql_error(&path, e);
        let values: Vec<Vec<Value>> = rows
            .iter()
            .map(|r| row_values(r).map_err(|e| sql_error(&path, e)))
            .collect::<Result<_>>()?;
        let columns: Vec<String> = R::COLUMNS
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let ty = match values.first().map(|v| &v[i]) {
                    Some(Value::Integer(_)) => " INTEGER",
                    Some(Value::Real(_)) => " REAL",
                    Some(_) => " TEXT",
                    None => "",
                };
                format!("{}{ty}", quote(c))
            })
            .collect();
        let table = quote(name);
        self.conn
            .execute_batch(&format!(
                "DROP TABLE IF EXISTS {table}; CREATE TABLE {table} ({});",
                columns.join(", ")
            ))
            .map_err(err)?;
        let marks = vec!["?"; R::COLUMNS.len()].join(", ");
        let mut insert = self
            .conn
            .prepare(&format!("INSERT INTO {table} VALUES ({marks})"))
            .map_err(err)?;
        for row in values {
            insert
                .execute(rusqlite::params_from_iter(row))
                .map_err(err)?;
        }
        for column in R::COLUMNS.iter().filter(|c| INDEXED.contains(c)) {
            self.conn
                .execute_batch(&format!(
                    "CREATE INDEX {} ON {table} ({});",
                    quote(&format!("{name}_{column}")),
                    quote(column)
                ))
                .map_err(err)?;
        }
        Ok(())
    }

    /// Commits, closes and renames the database into place.
    pub fn finish(self) -> Result<PathBuf> {
        let Sqlite { conn, tmp, path } = self;
        let result = conn
            .execute_batch("COMMIT;")
            .and_then(|_| conn.close().map_err(|(_, e)| e))
            .map_err(|e| sql_error(&path, e))
            .and_then(|_| {
                std::fs::rename(&tmp, &path).map_err(|source| Error::Write {
                    path: path.clone(),
                    source,
                })
            });
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result.map(|_| path)
    }
}

/// A row's values in column order, typed.
fn row_values<R: Columns>(row: &R) -> std::result::Result<Vec<Value>, rusqlite::Error> {
    let to_sql = |e: serde_json::Error| rusqlite::Error::ToSqlConversionFailure(Box::new(e));
    let serde_json::Value::Object(mut map) = serde_json::to_value(row).map_err(to_sql)? else {
        return Ok(Vec::new());
    };
    Ok(R::COLUMNS
        .iter()
        .map(|c| match map.remove(*c) {
            Some(serde_json::Value::Number(n)) => match n.as_i64() {
                Some(i) => Value::Integer(i),
                None => Value::Real(n.as_f64().unwrap_or(0.0)),
            },
            Some(serde_json::Value::String(s)) if DECIMAL_COLUMNS.contains(c) => {
                s.parse().map(Value::Real).unwrap_or(Value::Text(s))
            }
            Some(serde_json::Value::String(s)) => Value::Text(s),
            Some(serde_json::Value::Bool(b)) => Value::Integer(b.into()),
            Some(other) => Value::Text(other.to_string()),
            None => Value::Null,
        })
        .collect())
}

fn quote(identifier: &str) -> String {
    format!("\"{}\"", identifier.replace('"', "\"\""))
}

fn sql_error(path: &Path, e: rusqlite::Error) -> Error {
    Error::Write {
        path: path.to_path_buf(),
        source: std::io::Error::other(e.to_string()),
    }
}
