//! A book's tables written into its folder: every CSV/TSV/JSONL table, each
//! by its own writer, concurrently, the longest two while the book is
//! analyzed; or all of them in one SQLite file.

use super::{write_table, Sqlite, TableFormat, TableWriter};
use crate::analysis::{BookTables, Streams};
use crate::error::Result;
use crate::relate::QuoteRow;
use crate::rows::MentionRow;
use std::path::Path;

/// mentions.csv and quotes.csv, written chapter by chapter while the book
/// is analyzed (`analysis::analyze_book_into`), and finished by `write_book`.
pub struct BookStreams {
    mentions: TableWriter<MentionRow>,
    quotes: TableWriter<QuoteRow>,
}

impl BookStreams {
    /// Starts both tables in `dir`.
    pub fn create(dir: &Path, format: TableFormat) -> Result<BookStreams> {
        Ok(BookStreams {
            mentions: TableWriter::create(dir, "mentions", format)?,
            quotes: TableWriter::create(dir, "quotes", format)?,
        })
    }

    /// Where the analysis puts their rows.
    pub fn streams(&mut self) -> Streams<'_> {
        Streams {
            mentions: &mut self.mentions,
            quotes: &mut self.quotes,
        }
    }
}

/// Writes a book's tables into `dir` (`t`'s mentions and quotes having
/// gone to `streamed`, which is finished first), then dialogue and
/// relations.
pub fn write_book(
    dir: &Path,
    format: TableFormat,
    t: &BookTables,
    streamed: BookStreams,
) -> Result<()> {
    streamed.mentions.finish()?;
    streamed.quotes.finish()?;
    let (timeline, chapter_pairs) = rayon::join(
        || write_table(dir, "timeline", format, &t.timeline),
        || write_table(dir, "cooccurrence-chapters", format, &t.chapter_pairs),
    );
    timeline?;
    chapter_pairs?;
    let (entities, (cooccurrence, (frequency, chapters))) = rayon::join(
        || write_table(dir, "entities", format, &t.entities),
        || {
            rayon::join(
                || write_table(dir, "cooccurrence", format, &t.cooccurrence),
                || {
                    rayon::join(
                        || write_table(dir, "frequency", format, &t.frequency),
                        || write_table(dir, "chapters", format, &t.chapters),
                    )
                },
            )
        },
    );
    for written in [entities, cooccurrence, frequency, chapters] {
        written?;
    }
    write_table(dir, "dialogue", format, &t.relate.dialogue)?;
    write_table(dir, "relations", format, &t.relate.relations)?;
    Ok(())
}

/// `--format sqlite`: the book's tables in `dir/zhnovel.sqlite`.
pub fn write_book_sqlite(dir: &Path, t: &BookTables) -> Result<()> {
    let mut db = Sqlite::create(dir)?;
    db.table("entities", &t.entities)?;
    db.table("mentions", &t.mentions)?;
    db.table("cooccurrence", &t.cooccurrence)?;
    db.table("frequency", &t.frequency)?;
    db.table("chapters", &t.chapters)?;
    db.table("timeline", &t.timeline)?;
    db.table("cooccurrence_chapters", &t.chapter_pairs)?;
    db.table("quotes", &t.relate.quotes)?;
    db.table("dialogue", &t.relate.dialogue)?;
    db.table("relations", &t.relate.relations)?;
    db.finish()?;
    Ok(())
}
