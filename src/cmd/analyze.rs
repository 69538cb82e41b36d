//! `zhnovel analyze`: one book (or a shelf of books with `--books`) → tables.

use crate::cli::{AnalyzeArgs, FormatArg, Plan};
use crate::cmd::views::{summary, write_views};
use anyhow::Result;
use std::path::Path;
use std::process::ExitCode;
use zhnovel::analysis::{analyze_book, analyze_book_into};
use zhnovel::book::{normalize_book, read_book};
use zhnovel::input::{collect_sources, collect_sources_keep_going};
use zhnovel::output::outdir::{Manifest, OutputDir};
use zhnovel::output::{write_book, write_book_sqlite, write_table, BookStreams};
use zhnovel::segment::warm_up_tagger;
use zhnovel::shelf::{shelf_books, BookSummary, ShelfBook, ShelfTables};

pub fn run(plan: &Plan, args: &AnalyzeArgs) -> Result<ExitCode> {
    let started = std::time::Instant::now();
    // The first book is read, decoded, split, cleaned and converted while
    // the plan's dictionaries load; a bad dictionary is still reported
    // before anything about the inputs.
    let (engines, (books, first)) = rayon::join(
        || plan.engines(),
        || {
            let one = |sources| {
                vec![ShelfBook {
                    name: String::new(),
                    sources,
                }]
            };
            let (books, missing) = if args.books {
                (shelf_books(&args.paths), Vec::new())
            } else if args.keep_going {
                let (sources, missing) = collect_sources_keep_going(&args.paths);
                (Ok(one(sources)), missing)
            } else {
                (collect_sources(&args.paths).map(one), Vec::new())
            };
            let first = books.as_ref().ok().map(|books| {
                let (chapters, mut errors) = read_book(&books[0].sources, &plan.read);
                errors.splice(0..0, missing);
                let chapters = normalize_book(chapters, plan.converter.as_ref());
                warm_up_tagger();
                (chapters, errors)
            });
            (books, first)
        },
    );
    let engines = engines?;
    let books = books?;
    // Every file of the run is written into the staging folder and swapped
    // into `-o` by `commit`, run.json last (see `zhnovel::output::outdir`).
    let out = OutputDir::open(&args.output, args.force)?;
    let (mut first, mut failed) = (first, false);
    let mut shelf = ShelfTables::default();
    let mut summaries = Vec::new();
    for book in &books {
        let dir = out.staging().join(&book.name);
        std::fs::create_dir_all(&dir).map_err(|source| zhnovel::Error::Write {
            path: args.output.join(&book.name),
            source,
        })?;
        let (chapters, errors) = first.take().unwrap_or_else(|| {
            let (chapters, errors) = read_book(&book.sources, &plan.read);
            (normalize_book(chapters, plan.converter.as_ref()), errors)
        });
        let mut errors = errors.into_iter();
        if let Some(e) = errors.next() {
            if !args.keep_going {
                return Err(e.into());
            }
            eprintln!("zhnovel: {e}");
            failed = true;
        }
        for e in errors {
            eprintln!("zhnovel: {e}");
            failed = true;
        }
        if chapters.is_empty() {
            continue;
        }
        let label = if book.name.is_empty() {
            "analyze"
        } else {
            &book.name
        };
        let bar = plan.progress(chapters.len(), label);
        let progress = || bar.inc(1);
        // The longest tables are written as they are made, except into
        // SQLite (one file, written at the end).
        let tables = if args.table.form.format == FormatArg::Sqlite {
            let tables = analyze_book(&chapters, &engines, &plan.count, &progress);
            bar.finish_and_clear();
            write_book_sqlite(&dir, &tables)?;
            tables
        } else {
            let mut streamed = BookStreams::create(&dir, plan.format)?;
            let streams = streamed.streams();
            let tables = analyze_book_into(&chapters, &engines, &plan.count, &progress, streams);
            bar.finish_and_clear();
            write_book(&dir, plan.format, &tables, streamed)?;
            tables
        };
        write_views(&dir, args, &book.name, &tables)?;
        summaries.push((book.name.clone(), summary(&tables)));
        shelf.add(BookSummary::of_tables(&book.name, &tables));
        // The book's intermediate data is dropped here, before the next book.
    }
    if summaries.is_empty() {
        // Nothing could be read (each error is printed above): the folder
        // keeps the previous run's tables.
        return Ok(ExitCode::from(1));
    }
    if args.books {
        let (books, entities) = shelf.into_rows();
        write_table(out.staging(), "books", plan.format, &books)?;
        write_table(out.staging(), "entities", plan.format, &entities)?;
    }
    let inputs = args.paths.iter().map(|p| p.display().to_string());
    out.commit(Manifest::now(inputs.collect(), args.options_json()))?;
    if !plan.quiet {
        report(&summaries, started.elapsed().as_secs_f64(), &args.output);
    }
    Ok(ExitCode::from(u8::from(failed)))
}

/// The summary lines on stderr: one for a book, or one per book and a total.
fn report(summaries: &[(String, String)], seconds: f64, out: &Path) {
    let out = out.display();
    match summaries {
        [(name, line)] if name.is_empty() => eprintln!("zhnovel: {line} in {seconds:.1} s → {out}"),
        _ => {
            for (name, line) in summaries {
                eprintln!("zhnovel: {name}: {line}");
            }
            eprintln!(
                "zhnovel: {} books in {seconds:.1} s → {out}",
                summaries.len()
            );
        }
    }
}
