//! `zhnovel analyze`: one book (or a shelf of books with `--books`) → tables.

use crate::cli::{make_converter, read_options, AnalyzeArgs, Dictionaries, FormatArg, Plan};
use crate::cmd::progress_bar;
use anyhow::Result;
use std::path::Path;
use std::process::ExitCode;
use zhnovel::analysis::{analyze_book, BookTables};
use zhnovel::book::{normalize_book, read_book};
use zhnovel::input::{collect_sources, collect_sources_keep_going};
use zhnovel::output::outdir::{Manifest, OutputDir};
use zhnovel::output::{write_table, TableFormat};
use zhnovel::segment::warm_up_tagger;
use zhnovel::shelf::{shelf_books, BookSummary, ShelfTables};

pub fn run(args: &AnalyzeArgs, quiet: bool) -> Result<ExitCode> {
    let started = std::time::Instant::now();
    // Options, dictionaries and inputs are checked before anything is
    // created: `-o` is opened only once they are read.
    read_options(&args.input.decode, &args.input.chapters)?;
    // The dictionaries load (jieba's is most of the start-up) while the
    // first book is read, decoded, split, cleaned and converted (OpenCC
    // loads its dictionaries on first use); a bad option or dictionary is
    // still reported before anything about the inputs.
    let converter = make_converter(&args.input.script)?;
    let (dictionaries, first) = rayon::join(
        || Dictionaries::load(&args.lexicon),
        || -> Result<_> {
            let read = read_options(&args.input.decode, &args.input.chapters)?;
            let (books, missing) = if args.books {
                (
                    shelf_books(&args.paths)?
                        .into_iter()
                        .map(|b| (b.name, b.sources))
                        .collect(),
                    Vec::new(),
                )
            } else if args.keep_going {
                let (sources, missing) = collect_sources_keep_going(&args.paths);
                (vec![(String::new(), sources)], missing)
            } else {
                (
                    vec![(String::new(), collect_sources(&args.paths)?)],
                    Vec::new(),
                )
            };
            let (chapters, mut errors) = read_book(&books[0].1, &read);
            errors.splice(0..0, missing);
            let chapters = normalize_book(chapters, converter.as_ref());
            warm_up_tagger();
            Ok((books, (chapters, errors)))
        },
    );
    let plan = Plan::with_converter(converter, dictionaries?, &args.input, Some(&args.table))?;
    let (books, first) = first?;
    // Every file of the run is written into the staging folder and swapped
    // into `-o` by `commit`, run.json last (see `zhnovel::outdir`).
    let out = OutputDir::open(&args.output, args.force)?;
    let mut wrote_any = false;
    let mut first = Some(first);
    let mut failed = false;
    let mut shelf = ShelfTables::default();
    let mut summaries = Vec::new();
    for (name, sources) in &books {
        let dir = if name.is_empty() {
            out.staging().to_path_buf()
        } else {
            let dir = out.staging().join(name);
            std::fs::create_dir_all(&dir).map_err(|source| zhnovel::Error::Write {
                path: args.output.join(name),
                source,
            })?;
            dir
        };
        let (chapters, errors) = match first.take() {
            Some(read) => read,
            None => {
                let (chapters, errors) = read_book(sources, &plan.read);
                (normalize_book(chapters, plan.converter.as_ref()), errors)
            }
        };
        if !errors.is_empty() && !args.keep_going {
            let first = errors.into_iter().next().expect("not empty");
            return Err(first.into());
        }
        for e in &errors {
            eprintln!("zhnovel: {e}");
            failed = true;
        }
        if chapters.is_empty() {
            continue;
        }
        let bar = progress_bar(
            chapters.len(),
            quiet,
            if name.is_empty() { "analyze" } else { name },
        );
        let tables = analyze_book(&chapters, &plan.engines(), &plan.count, &|| bar.inc(1));
        bar.finish_and_clear();
        // Every file goes into `dir`, inside the staging folder.
        if args.table.form.format == FormatArg::Sqlite {
            super::views::write_sqlite(&dir, &tables)?;
        } else {
            write_book(&dir, plan.format, &tables)?;
        }
        wrote_any = true;
        super::views::write_views(&dir, args, name, &tables)?;
        summaries.push((name.clone(), super::views::summary(&tables)));
        if !name.is_empty() {
            shelf.add(BookSummary::of_tables(name, &tables));
        }
        // The book's intermediate data is dropped here, before the next book.
    }
    if !wrote_any {
        // Nothing could be read (each error is printed above): the folder
        // keeps the previous run's tables.
        return Ok(ExitCode::from(1));
    }
    if args.books {
        let (books, entities) = shelf.into_rows();
        write_table(out.staging(), "books", plan.format, &books)?;
        write_table(out.staging(), "entities", plan.format, &entities)?;
    }
    let manifest = Manifest {
        tool: "zhnovel",
        version: env!("CARGO_PKG_VERSION"),
        inputs: args.paths.iter().map(|p| p.display().to_string()).collect(),
        options: options_json(args),
        time: jiff::Timestamp::now()
            .round(jiff::Unit::Second)
            .map_or_else(|_| jiff::Timestamp::now().to_string(), |t| t.to_string()),
        files: Vec::new(),
    };
    out.commit(manifest)?;
    if !quiet {
        let seconds = started.elapsed().as_secs_f64();
        let out = args.output.display();
        match summaries.as_slice() {
            [(name, line)] if name.is_empty() => {
                eprintln!("zhnovel: {line} in {seconds:.1} s → {out}")
            }
            _ => {
                for (name, line) in &summaries {
                    eprintln!("zhnovel: {name}: {line}");
                }
                eprintln!(
                    "zhnovel: {} books in {seconds:.1} s → {out}",
                    summaries.len()
                );
            }
        }
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Writes a book's tables, each by its own writer, concurrently, then
/// quotes, dialogue and relations.
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

fn options_json(args: &AnalyzeArgs) -> serde_json::Value {
    serde_json::json!({
        "books": args.books,
        "window": args.table.window.name(),
        "min_count": args.table.min_count,
        "all_words": args.table.all_words,
        "format": format!("{:?}", args.table.form.format).to_lowercase(),
        "bom": !args.table.no_bom,
        "script": format!("{:?}", args.table.form.script).to_lowercase(),
        "convert": format!("{:?}", args.input.script.convert).to_lowercase(),
        "opencc_config": args.input.script.opencc_config,
        "encoding": args.input.decode.encoding,
        "lossy": args.input.decode.lossy,
        "chapter_pattern": args.input.chapters.chapter_pattern,
        "dict": args.lexicon.words.dicts,
        "aliases": args.lexicon.aliases,
        "hmm": !args.lexicon.words.no_hmm,
        "graphml": args.graphml,
        "gexf": args.views.gexf,
        "graph_all": args.views.graph_all,
        "report": !args.views.no_report,
    })
}
