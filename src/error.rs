//! The library's one error type. Every variant names the file (and line or
//! byte offset) it is about, so the CLI can print a one-line message.

use std::path::PathBuf;

/// Whether an error comes from how the tool was called or from the data it read.
/// The CLI maps these to exit codes 2 and 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    Usage,
    Data,
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{path}: no such file or folder")]
    Missing { path: PathBuf },
    #[error("{path}: cannot read: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: folder holds no .txt files")]
    NoText { path: PathBuf },
    #[error("{path}: file is empty")]
    Empty { path: PathBuf },
    #[error("{path}: looks like a binary file (NUL byte at offset {offset}), not text")]
    Binary { path: PathBuf, offset: usize },
    #[error("{path}: not valid {encoding} at byte offset {offset} (use --encoding to force one, or --lossy)")]
    Undecodable {
        path: PathBuf,
        encoding: &'static str,
        offset: usize,
    },
    #[error("unknown encoding '{name}' (try utf-8, utf-16le, utf-16be, gb18030, gbk, big5)")]
    UnknownEncoding { name: String },
    #[error("{path}:{line}: {message}")]
    Dictionary {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
    #[error("invalid chapter pattern: {0}")]
    ChapterPattern(String),
    #[error("{path}: output folder holds files that zhnovel did not write (no run.json); use --force to write into it anyway")]
    ForeignOutput { path: PathBuf },
    #[error("{path}: another zhnovel run is writing into this folder (it holds {lock}); wait for it to finish, or choose another -o")]
    Locked { path: PathBuf, lock: &'static str },
    #[error("{path}: cannot write: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("OpenCC: {0}")]
    Opencc(String),
    #[error("{0}")]
    Usage(String),
}

impl Error {
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::UnknownEncoding { .. } | Error::ChapterPattern(_) | Error::Usage(_) => {
                ErrorKind::Usage
            }
            Error::Missing { .. } | Error::ForeignOutput { .. } => ErrorKind::Usage,
            _ => ErrorKind::Data,
        }
    }

    /// A broken pipe while writing to stdout is how `zhnovel … | head` ends; not an error.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Write { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
