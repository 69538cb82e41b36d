//! Input: turns the paths a user gives (files, folders, `-` for stdin) into an
//! ordered list of sources. A folder is walked recursively (walkdir) for
//! `.txt` files, sorted in natural order so that 第2章.txt comes before
//! 第10章.txt. Symbolic links are followed (`follow_links`); a link back to a
//! folder above it is skipped (walkdir's loop detection), and a file reached
//! by two paths is read once.

use crate::error::{Error, Result};
use std::cmp::Ordering;
use std::io::Read;
use std::path::{Path, PathBuf};

/// One input file (or stdin), not yet read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourcePath {
    File(PathBuf),
    Stdin,
}

impl SourcePath {
    /// The name shown in tables and messages.
    pub fn display(&self) -> String {
        match self {
            SourcePath::File(p) => p.display().to_string(),
            SourcePath::Stdin => "-".to_string(),
        }
    }

    pub fn path(&self) -> PathBuf {
        match self {
            SourcePath::File(p) => p.clone(),
            SourcePath::Stdin => PathBuf::from("-"),
        }
    }

    /// Reads the whole source. Inputs are only ever opened for reading.
    pub fn read(&self) -> Result<Vec<u8>> {
        match self {
            SourcePath::File(p) => std::fs::read(p).map_err(|source| Error::Read {
                path: p.clone(),
                source,
            }),
            SourcePath::Stdin => {
                let mut buf = Vec::new();
                std::io::stdin()
                    .read_to_end(&mut buf)
                    .map_err(|source| Error::Read {
                        path: PathBuf::from("-"),
                        source,
                    })?;
                Ok(buf)
            }
        }
    }
}

/// A command's single optional input: a file, or stdin when it is absent or `-`.
pub fn source_arg(path: Option<&Path>) -> Result<SourcePath> {
    match path {
        Some(p) if p.as_os_str() != "-" => {
            if !p.exists() {
                return Err(Error::Missing {
                    path: p.to_path_buf(),
                });
            }
            Ok(SourcePath::File(p.to_path_buf()))
        }
        _ => Ok(SourcePath::Stdin),
    }
}

/// Reads a UTF-8 text file the user gives us (a dictionary, an alias list);
/// errors name the file, and `what` it was meant to be.
pub fn read_utf8(path: &Path, what: &str) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|source| Error::Read {
        path: path.to_path_buf(),
        source,
    })?;
    String::from_utf8(bytes).map_err(|e| Error::Invalid {
        path: path.to_path_buf(),
        message: format!(
            "{what} is not UTF-8 (byte offset {})",
            e.utf8_error().valid_up_to()
        ),
    })
}

/// Expands user paths into sources: files as given, folders walked for `.txt`
/// files in natural order. A path that does not exist, or a folder without
/// text files, is an error naming it.
pub fn collect_sources(paths: &[PathBuf]) -> Result<Vec<SourcePath>> {
    let (sources, mut errors) = collect_sources_keep_going(paths);
    match errors.is_empty() {
        true => Ok(sources),
        false => Err(errors.remove(0)),
    }
}

/// `collect_sources` that goes on past a path that fails: the sources of
/// the others, and one error per failing path, in input order.
pub fn collect_sources_keep_going(paths: &[PathBuf]) -> (Vec<SourcePath>, Vec<Error>) {
    let mut sources = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            sources.push(SourcePath::Stdin);
            continue;
        }
        let Ok(meta) = std::fs::metadata(path) else {
            errors.push(Error::Missing { path: path.clone() });
            continue;
        };
        if meta.is_dir() {
            match walk_txt(path) {
                Ok(files) if files.is_empty() => errors.push(Error::NoText { path: path.clone() }),
                Ok(files) => sources.extend(files.into_iter().map(SourcePath::File)),
                Err(e) => errors.push(e),
            }
        } else {
            sources.push(SourcePath::File(path.clone()));
        }
    }
    (sources, errors)
}

/// The `.txt` files under `dir`, in natural order, each once.
fn walk_txt(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(dir).follow_links(true) {
        let entry = match entry {
            Ok(entry) => entry,
            // A link to a folder that holds it: its files are walked once
            // already, through the real path.
            Err(e) if e.loop_ancestor().is_some() => continue,
            Err(e) => {
                let path = e.path().unwrap_or(dir).to_path_buf();
                return Err(Error::Read {
                    path,
                    source: e
                        .into_io_error()
                        .unwrap_or_else(|| std::io::Error::other("cannot walk this folder")),
                });
            }
        };
        if entry.file_type().is_file() && is_txt(entry.path()) {
            files.push(entry.into_path());
        }
    }
    files.sort_by(|a, b| natural_cmp_paths(a, b));
    // The same file through two links: keep its first path in that order.
    let mut seen = std::collections::HashSet::new();
    files.retain(|f| seen.insert(std::fs::canonicalize(f).unwrap_or_else(|_| f.clone())));
    Ok(files)
}

fn is_txt(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("txt"))
}

/// Component by component, so a folder's name is compared with a folder's.
fn natural_cmp_paths(a: &Path, b: &Path) -> Ordering {
    let mut ca = a.components();
    let mut cb = b.components();
    loop {
        match (ca.next(), cb.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) => {
                let o = natural_cmp(
                    &x.as_os_str().to_string_lossy(),
                    &y.as_os_str().to_string_lossy(),
                );
                if o != Ordering::Equal {
                    return o;
                }
            }
        }
    }
}

/// Compares strings so that runs of digits (ASCII, full-width, or Chinese
/// numerals such as 十二) compare by value: 第2章 < 第10章 < 第十一章.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let ta = natural_key(a);
    let tb = natural_key(b);
    ta.cmp(&tb).then_with(|| a.cmp(b))
}

#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum KeyPart {
    Num(u64),
    Text(char),
}

fn natural_key(s: &str) -> Vec<KeyPart> {
    let chars: Vec<char> = s.chars().collect();
    let mut key = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        while i < chars.len() && crate::numerals::is_numeral_char(chars[i]) {
            i += 1;
        }
        if i > start {
            let run: String = chars[start..i].iter().collect();
            if let Some(n) = crate::numerals::parse_number(&run) {
                key.push(KeyPart::Num(n));
                continue;
            }
            i = start;
        }
        key.push(KeyPart::Text(chars[i]));
        i += 1;
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order_of_chapter_files() {
        let mut names = vec![
            "第10章.txt",
            "第2章.txt",
            "第1章.txt",
            "第十一章.txt",
            "a.txt",
        ];
        names.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            names,
            vec![
                "a.txt",
                "第1章.txt",
                "第2章.txt",
                "第10章.txt",
                "第十一章.txt"
            ]
        );
    }

    #[test]
    fn zero_padded_and_plain_digits_sort_by_value() {
        let mut names = vec!["ch10.txt", "ch009.txt", "ch1.txt"];
        names.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(names, vec!["ch1.txt", "ch009.txt", "ch10.txt"]);
    }
}
