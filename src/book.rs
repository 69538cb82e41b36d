//! A book as the stages see it: its sources read and decoded in parallel,
//! split into chapters, cleaned, then normalized to Simplified script. What
//! `analysis`, `relate`, `kwic` and the commands start from.

use crate::chapter::{split_chapters, HeadingMatcher};
use crate::clean::clean;
use crate::decode::decode;
use crate::error::{Error, Result};
use crate::input::SourcePath;
use crate::script::{Converter, Normalized};
use rayon::prelude::*;
use std::path::Path;

/// How to read the inputs.
#[derive(Debug, Clone)]
pub struct ReadOptions {
    pub encoding: Option<&'static encoding_rs::Encoding>,
    pub lossy: bool,
    pub headings: HeadingMatcher,
}

/// One chapter ready for analysis.
#[derive(Debug, Clone)]
pub struct ChapterText {
    pub title: String,
    pub file: String,
    pub encoding: &'static str,
    pub junk_removed: usize,
    pub text: Normalized,
}

/// A chapter read, decoded and cleaned, not yet normalized.
#[derive(Debug, Clone)]
pub struct CleanChapter {
    pub title: String,
    pub file: String,
    pub encoding: &'static str,
    pub junk_removed: usize,
    pub text: String,
}

/// Reads, decodes, splits, cleans and normalizes the sources of one book.
/// Sources that fail are returned with their error beside the chapters of the
/// others, in input order.
pub fn load_book(
    sources: &[SourcePath],
    read: &ReadOptions,
    converter: &dyn Converter,
) -> (Vec<ChapterText>, Vec<Error>) {
    let (chapters, errors) = read_book(sources, read);
    (normalize_book(chapters, converter), errors)
}

/// The first half of `load_book`: reads, decodes, splits and cleans (no
/// converter needed, so it can run while the engines load).
pub fn read_book(sources: &[SourcePath], read: &ReadOptions) -> (Vec<CleanChapter>, Vec<Error>) {
    let per_source: Vec<Result<Vec<CleanChapter>>> = sources
        .par_iter()
        .map(|source| read_source(source, read))
        .collect();
    let mut chapters = Vec::new();
    let mut errors = Vec::new();
    for r in per_source {
        match r {
            Ok(c) => chapters.extend(c),
            Err(e) => errors.push(e),
        }
    }
    (chapters, errors)
}

/// The second half of `load_book`: script normalization, chapters in parallel.
pub fn normalize_book(chapters: Vec<CleanChapter>, converter: &dyn Converter) -> Vec<ChapterText> {
    chapters
        .into_par_iter()
        .map(|c| ChapterText {
            title: c.title,
            file: c.file,
            encoding: c.encoding,
            junk_removed: c.junk_removed,
            text: Normalized::new(c.text, converter),
        })
        .collect()
}

fn read_source(source: &SourcePath, read: &ReadOptions) -> Result<Vec<CleanChapter>> {
    let bytes = source.read()?;
    let path = source.path();
    let decoded = decode(&path, &bytes, read.encoding, read.lossy)?;
    drop(bytes);
    let stem = file_stem(&path);
    let raw = split_chapters(&decoded.text, &read.headings, &stem);
    if raw.is_empty() {
        return Err(Error::Empty { path });
    }
    let file = source.display();
    Ok(raw
        .into_par_iter()
        .map(|c| {
            let cleaned = clean(&c.text);
            CleanChapter {
                title: c.title,
                file: file.clone(),
                encoding: decoded.encoding,
                junk_removed: cleaned.junk_removed,
                text: cleaned.text,
            }
        })
        .collect())
}

fn file_stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "-".to_string())
}
