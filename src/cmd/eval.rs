//! `zhnovel eval`: each input file analyzed on its own and scored against an
//! answer key; prints precision, recall and F1 per type, then the errors.

use crate::cli::{EvalArgs, Plan};
use anyhow::Result;
use std::process::ExitCode;
use zhnovel::analysis::analyze_book;
use zhnovel::book::load_book;
use zhnovel::book_eval::{score_book, ScoredRow};
use zhnovel::entity::EntityType;
use zhnovel::eval::{score, Extracted, Gold, Report};
use zhnovel::input::collect_sources;
use zhnovel::key::BookKey;
use zhnovel::rows::EntityRow;
use zhnovel::script::{Converter, FerrousConverter, ScriptConfig};

pub fn run(plan: &Plan, args: &EvalArgs) -> Result<ExitCode> {
    let to_simplified = FerrousConverter::new(ScriptConfig::T2s)?;
    if let Some(key) = &args.key {
        return run_book(args, plan, key, &to_simplified);
    }
    let gold = Gold::load(
        args.gold
            .as_ref()
            .expect("clap requires --gold without --key"),
    )?;
    let mut report = Report::default();
    for source in collect_sources(&args.paths)? {
        let (chapters, mut errors) = load_book(
            std::slice::from_ref(&source),
            &plan.read,
            plan.converter.as_ref(),
        );
        if !errors.is_empty() {
            return Err(errors.remove(0).into());
        }
        let tables = analyze_book(&chapters, &plan.engines()?, &plan.count, &|| {});
        let extracted: Vec<Extracted> = tables
            .entities
            .iter()
            .filter_map(|e| {
                let (kind, names) = row_names(e, &to_simplified)?;
                Some(Extracted { kind, names })
            })
            .collect();
        let path = source.path();
        let file_name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        report.add(score(&gold, &file_name, &extracted));
    }
    println!("{report}");
    let mistakes = report.mistakes_text();
    if !mistakes.is_empty() {
        println!("{mistakes}");
    }
    Ok(ExitCode::SUCCESS)
}

/// An entity row's type and every name it goes by, Simplified.
fn row_names(e: &EntityRow, to_simplified: &dyn Converter) -> Option<(EntityType, Vec<String>)> {
    let kind = EntityType::parse(e.kind)?;
    let mut names = vec![e.entity.clone(), to_simplified.convert(&e.original)];
    for list in [&e.variants, &e.aliases] {
        names.extend(list.iter().map(|s| to_simplified.convert(s)));
    }
    Some((kind, names))
}

/// `--key`: all inputs are one book, scored against a book-level key.
fn run_book(
    args: &EvalArgs,
    plan: &Plan,
    key: &std::path::Path,
    to_simplified: &dyn Converter,
) -> Result<ExitCode> {
    let key = BookKey::load(key)?;
    let chapters = plan.read_book(&args.paths)?;
    let tables = analyze_book(&chapters, &plan.engines()?, &plan.count, &|| {});
    let rows: Vec<ScoredRow> = tables
        .entities
        .iter()
        .filter_map(|e| {
            let (kind, names) = row_names(e, to_simplified)?;
            Some(ScoredRow {
                kind,
                count: e.count,
                names,
            })
        })
        .collect();
    let text: String = chapters.iter().map(|c| c.text.text.as_str()).collect();
    for s in score_book(&key, &rows, &text, args.top_persons) {
        print!("{s}");
    }
    Ok(ExitCode::SUCCESS)
}
