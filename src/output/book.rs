//! A book's tables written into its folder: every CSV/TSV/JSONL table, each
//! by its own writer, concurrently; or all of them in one SQLite file.

use super::{write_table, Sqlite, TableFormat};
use crate::analysis::BookTables;
use crate::error::Result;
use std::path::Path;

/// Writes a book's tables into `dir`, then quotes, dialogue and relations.
pub fn write_book(dir: &Path, format: TableFormat, t: &BookTables) -> Result<()> {
    let (timeline, chapter_pairs) = rayon::join(
        || write_table(dir, "timeline", format, &t.timeline),
        || write_table(dir, "cooccurrence-chapters", format, &t.chapter_pairs),
    );
    timeline?;
    chapter_pairs?;
    let ((entities, mentions), (cooccurrence, (frequency, chapters))) = rayon::join(
        || {
            rayon::join(
                || write_table(dir, "entities", format, &t.entities),
                || write_table(dir, "mentions", format, &t.mentions),
            )
        },
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
    for written in [entities, mentions, cooccurrence, frequency, chapters] {
        written?;
    }
    write_table(dir, "quotes", format, &t.relate.quotes)?;
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
