//! `zhnovel merge`: book folders written by separate `analyze` runs (on
//! other machines, by GNU parallel, a Slurm array, …) → one shelf folder
//! with the tables a single `analyze --books` run writes: each book's files
//! in `<book>/`, and books.csv and entities.csv over all of them.

use crate::cli::{MergeArgs, Plan};
use anyhow::Result;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use zhnovel::input::natural_cmp;
use zhnovel::output::outdir::{Manifest, OutputDir, LOCK, MANIFEST, STAGING};
use zhnovel::output::{write_table, TableFormat};
use zhnovel::shelf::{book_name, BookSummary, ShelfTables};

pub fn run(plan: &Plan, args: &MergeArgs) -> Result<ExitCode> {
    // Books in natural order of their names, as `--books` orders a folder.
    let mut books: Vec<(String, &PathBuf)> = args.books.iter().map(|p| (book_name(p), p)).collect();
    books.sort_by(|a, b| natural_cmp(&a.0, &b.0));
    for pair in books.windows(2) {
        if pair[0].0 == pair[1].0 {
            anyhow::bail!(
                "{} and {}: two books named `{}`",
                pair[0].1.display(),
                pair[1].1.display(),
                pair[0].0
            );
        }
    }
    for (_, dir) in &books {
        if !dir.join(MANIFEST).is_file() {
            anyhow::bail!(
                "{}: not a zhnovel output folder (no {MANIFEST})",
                dir.display()
            );
        }
    }
    let format = table_format(books[0].1)?;
    let summaries: Vec<BookSummary> = books
        .par_iter()
        .map(|(name, dir)| BookSummary::of_folder(name, dir))
        .collect::<zhnovel::Result<_>>()?;
    let out = OutputDir::open(&args.output, args.force)?;
    let mut shelf = ShelfTables::default();
    for ((name, dir), summary) in books.iter().zip(summaries) {
        copy_book(dir, &out.staging().join(name))?;
        shelf.add(summary);
    }
    let (book_rows, entity_rows) = shelf.into_rows();
    write_table(out.staging(), "books", format, &book_rows)?;
    write_table(out.staging(), "entities", format, &entity_rows)?;
    out.commit(Manifest::now(
        args.books.iter().map(|p| p.display().to_string()).collect(),
        serde_json::json!({ "merge": true }),
    ))?;
    if !plan.quiet {
        eprintln!(
            "zhnovel: {} books merged → {}",
            book_rows.len(),
            args.output.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The format of a book folder's tables, for the shelf tables beside them.
fn table_format(dir: &Path) -> Result<TableFormat> {
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
        anyhow::bail!(
            "{}: not a zhnovel book folder with CSV, TSV or JSON Lines tables (merge does not read --format sqlite)",
            dir.display()
        );
    }
    let bytes = std::fs::read(&path).map_err(|source| zhnovel::Error::Read { path, source })?;
    Ok(TableFormat::Csv {
        bom: bytes.starts_with("\u{feff}".as_bytes()),
    })
}

/// Copies a book folder's files (not its run.json, lock or staging
/// folder) into the shelf's staging folder.
fn copy_book(from: &Path, to: &Path) -> Result<()> {
    let write_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| zhnovel::Error::Write { path, source }
    };
    std::fs::create_dir_all(to).map_err(write_err(to))?;
    let entries = std::fs::read_dir(from).map_err(|source| zhnovel::Error::Read {
        path: from.to_path_buf(),
        source,
    })?;
    for entry in entries {
        let entry = entry.map_err(|source| zhnovel::Error::Read {
            path: from.to_path_buf(),
            source,
        })?;
        let name = entry.file_name();
        if [MANIFEST, LOCK, STAGING].iter().any(|n| name == *n) {
            continue;
        }
        let target = to.join(&name);
        if entry.path().is_dir() {
            copy_book(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target).map_err(write_err(&target))?;
        }
    }
    Ok(())
}
