//! `zhnovel merge`: book folders written by separate `analyze` runs (on
//! other machines, by GNU parallel, a Slurm array, …) → one shelf folder
//! with the tables a single `analyze --books` run writes: each book's files
//! in `<book>/`, and books.csv and entities.csv over all of them.

use crate::cli::{MergeArgs, Plan};
use anyhow::Result;
use rayon::prelude::*;
use std::path::PathBuf;
use std::process::ExitCode;
use zhnovel::input::natural_cmp;
use zhnovel::output::outdir::{copy_run, Manifest, OutputDir, MANIFEST};
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
    let format = TableFormat::of_folder(books[0].1)?;
    let summaries: Vec<BookSummary> = books
        .par_iter()
        .map(|(name, dir)| BookSummary::of_folder(name, dir))
        .collect::<zhnovel::Result<_>>()?;
    let out = OutputDir::open(&args.output, args.force)?;
    let mut shelf = ShelfTables::default();
    for ((name, dir), summary) in books.iter().zip(summaries) {
        copy_run(dir, &out.staging().join(name))?;
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
